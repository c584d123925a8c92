//! Unit tests of the match-server client: address and configuration
//! checks, the reconnect backoff, the run's totals, and runs that fail
//! before or while connecting.

use super::*;
use crate::platforms::ws::protocol::YourResult;
use std::time::Instant;

#[test]
fn a_malformed_server_address_is_refused_a_good_one_kept() {
    for good in [
        "ws://127.0.0.1:8765",
        "wss://example.org/ladder",
        "ws://localhost",
        "ws://[::1]:9000",
    ] {
        assert_eq!(check_url(good), Ok(()), "{good}");
    }
    for (bad, says) in [
        ("ws://127.0.0.1:99999", "99999 is not a port"),
        ("ws://127.0.0.1:0", "0 is not a port"),
        ("ws://:8765", "names no host"),
        ("http://127.0.0.1:8765", "expected ws://"),
        ("ws://a b", "not a URL"),
    ] {
        let e = check_url(bad).unwrap_err();
        assert!(e.contains(says), "{bad}: {e}");
    }
}

#[test]
fn run_client_future_is_send() {
    fn is_send<T: Send>(_: T) {}
    is_send(run_client::<crate::games::four3d::Board>(
        ClientConfig::default(),
        |_| {},
    ));
}

#[test]
fn backoff_doubles_up_to_the_cap() {
    let ms = Duration::from_millis;
    let d: Vec<_> = (1..=6)
        .map(|f| backoff_delay(ms(100), ms(1000), f))
        .collect();
    assert_eq!(d, [ms(100), ms(200), ms(400), ms(800), ms(1000), ms(1000)]);
    assert_eq!(backoff_delay(ms(100), ms(1000), 200), ms(1000));
}

#[test]
fn summary_score() {
    let mut s = ClientSummary::default();
    assert_eq!(s.score(), 0.0);
    s.add(Some(YourResult::Win));
    s.add(Some(YourResult::Draw));
    s.add(Some(YourResult::Loss));
    s.add(Some(YourResult::Win));
    // An aborted game is neither a win, a draw nor a loss.
    s.add(None);
    assert_eq!((s.games, s.wins, s.draws, s.losses), (4, 2, 1, 1));
    assert_eq!(s.aborted, 1);
    assert!((s.score() - 0.625).abs() < 1e-12);
}

#[test]
fn config_validation() {
    assert!(ClientConfig::default().validate().is_ok());
    let bad = [
        ClientConfig {
            games: 0,
            ..ClientConfig::default()
        },
        ClientConfig {
            name: String::new(),
            ..ClientConfig::default()
        },
        ClientConfig {
            url: "http://x".into(),
            ..ClientConfig::default()
        },
    ];
    for c in bad {
        assert!(matches!(c.validate(), Err(ClientError::Config(_))));
    }
}

#[tokio::test]
async fn unknown_agent_fails_before_connecting() {
    let cfg = ClientConfig {
        agent: "nope".into(),
        // Nothing listens here; an attempt to connect would be a
        // Connect error instead.
        url: "ws://127.0.0.1:1".into(),
        ..ClientConfig::default()
    };
    let e = run_client::<crate::games::four3d::Board>(cfg, |_| {})
        .await
        .unwrap_err();
    assert!(
        matches!(e, ClientError::Agent(ref m) if m.contains("nope")),
        "{e}"
    );
}

#[tokio::test]
async fn gives_up_after_max_reconnects() {
    // A port with nothing listening.
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = l.local_addr().unwrap();
    drop(l);
    let cfg = ClientConfig {
        url: format!("ws://{addr}"),
        backoff_initial: Duration::from_millis(5),
        backoff_max: Duration::from_millis(20),
        max_reconnects: 3,
        ..ClientConfig::default()
    };
    let start = Instant::now();
    let e = run_client::<crate::games::four3d::Board>(cfg, |_| {})
        .await
        .unwrap_err();
    match e {
        ClientError::Connect { attempts, .. } => assert_eq!(attempts, 4),
        other => panic!("expected a connect error, got {other}"),
    }
    // Waits of 5 + 10 + 20 ms happened between the 4 attempts.
    assert!(start.elapsed() >= Duration::from_millis(35));
}
