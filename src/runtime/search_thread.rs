//! A dedicated OS thread owning one agent. Async code submits positions over a
//! std channel and awaits the decision on a tokio oneshot, so the search never
//! runs on (or blocks) an async worker thread.
//!
//! With pondering on ([`SearchThread::set_ponder`]), the thread goes on
//! thinking after each answer ([`Agent::ponder`]: the opponent's replies to
//! the move just chosen) until anything else is asked of it: a search, a new
//! game, a game over, a cancel, [`SearchThread::stop_pondering`] or a drop
//! each raise the ponder's stop flag right after queueing their request, and
//! the thread looks for a queued request before it starts to ponder, so a
//! request never waits for more than the agent's next look at the flag.

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Arc};
use std::task::{Context, Poll};
use std::thread::JoinHandle;

use tokio::sync::oneshot;

use crate::model::Model;
use crate::search::{Agent, Deadline, Decision, Limits, Ready};
use std::time::{Duration, Instant};

/// Why a search produced no decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SearchError {
    /// [`SearchThread::cancel`] was called before the search started.
    #[error("the search was cancelled before it started")]
    Cancelled,
    /// The agent panicked or the thread is gone.
    #[error("the search thread failed (the agent panicked or the thread ended)")]
    Failed,
}

enum Request<G: Model> {
    Search {
        obs: G::Obs,
        limits: Limits,
        generation: u64,
        ticket: u64,
        reply: oneshot::Sender<Decision<G::Action>>,
    },
    NewGame,
    GameOver(G::Obs),
}

/// A running search thread. Dropping it cancels any search and joins the
/// thread.
pub struct SearchThread<G: Model> {
    tx: Option<mpsc::Sender<Request<G>>>,
    stop: Arc<AtomicBool>,
    /// Bumped by every `cancel`, so requests queued before it are skipped.
    cancels: Arc<AtomicU64>,
    thread: Option<JoinHandle<()>>,
    agent_name: String,
    ponder: Arc<Ponder>,
    /// The best move so far of the search under way ([`Ready`]).
    ready: Arc<Ready<G::Action>>,
    /// Bumped by every `submit`: each search's ticket to its ready move.
    tickets: AtomicU64,
}

/// The longest a ponder runs without a request (an opponent that thinks
/// longer leaves the rest unused; a tree has its own node cap).
pub const PONDER_CAP: std::time::Duration = std::time::Duration::from_secs(60);

/// What pondering shares between the thread and its owner.
#[derive(Debug, Default)]
struct Ponder {
    /// Whether to ponder after each answer.
    on: AtomicBool,
    /// Raised to end a ponder (and by every request, after it is queued).
    stop: Arc<AtomicBool>,
    /// Bumped before each raise of `stop`: a raise that comes with no bump
    /// since the ponder began is a late one of the request just served,
    /// and the ponder goes on.
    asks: AtomicU64,
    /// Ponders run, the work they did, and the longest one took to stop
    /// after its flag was raised (microseconds).
    runs: AtomicU64,
    work: AtomicU64,
    nanos: AtomicU64,
}

/// What the thread's ponders did so far ([`SearchThread::ponder_stats`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PonderStats {
    /// Ponders that did some work.
    pub runs: u64,
    /// Their work, in the agent's work unit.
    pub work: u64,
    /// Their time, summed.
    pub time: std::time::Duration,
}

impl PonderStats {
    /// The line a client logs (info) at the end of a pondering run.
    pub fn log(&self, agent: &str) {
        tracing::info!(
            agent,
            ponders = self.runs,
            work = self.work,
            seconds = self.time.as_secs_f64(),
            "pondered on the opponent's time"
        );
    }
}

/// The pending result of [`SearchThread::submit`]: a future owning no borrow
/// of the thread, so it can be stored and polled in a `select!` loop.
pub struct SearchHandle<M> {
    rx: oneshot::Receiver<Decision<M>>,
    cancelled: Arc<AtomicU64>,
    generation: u64,
    ticket: u64,
}

impl<M> SearchHandle<M> {
    /// This search's ticket: [`SearchThread::ready`] with it gives the
    /// search's best move so far.
    pub fn ticket(&self) -> u64 {
        self.ticket
    }
}

impl<M> Future for SearchHandle<M> {
    type Output = Result<Decision<M>, SearchError>;
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let generation = self.generation;
        let cancelled = self.cancelled.load(Ordering::SeqCst) != generation;
        Pin::new(&mut self.rx).poll(cx).map(|r| match r {
            Ok(d) => Ok(d),
            Err(_) if cancelled => Err(SearchError::Cancelled),
            Err(_) => Err(SearchError::Failed),
        })
    }
}

impl<G: Model> SearchThread<G> {
    /// Starts a thread that owns `agent`.
    pub fn spawn(mut agent: Box<dyn Agent<G>>) -> Self {
        let ready = Arc::new(Ready::default());
        agent.keep_ready(ready.clone());
        let (tx, rx) = mpsc::channel::<Request<G>>();
        let stop = Arc::new(AtomicBool::new(false));
        let cancels = Arc::new(AtomicU64::new(0));
        let agent_name = agent.name().to_string();
        let ponder = Arc::new(Ponder::default());
        let (stop2, cancels2, ponder2) = (stop.clone(), cancels.clone(), ponder.clone());
        let ready2 = ready.clone();
        let thread = std::thread::Builder::new()
            .name(format!("search-{agent_name}"))
            .spawn(move || serve(agent, rx, &stop2, &cancels2, &ponder2, &ready2))
            .ok();
        if thread.is_none() {
            tracing::error!("could not start a search thread; searches will fail");
        }
        SearchThread {
            tx: thread.as_ref().map(|_| tx),
            stop,
            cancels,
            thread,
            agent_name,
            ponder,
            ready,
            tickets: AtomicU64::new(0),
        }
    }

    /// Turns pondering on or off for the searches submitted from now on
    /// (off ends a ponder in progress).
    pub fn set_ponder(&self, on: bool) {
        self.ponder.on.store(on, Ordering::SeqCst);
        if !on {
            self.stop_pondering();
        }
    }

    /// Whether pondering is on.
    pub fn pondering(&self) -> bool {
        self.ponder.on.load(Ordering::SeqCst)
    }

    /// Ends a ponder in progress (at game over, on a stop, on a closed
    /// connection); the next answer starts another.
    pub fn stop_pondering(&self) {
        self.ponder.asks.fetch_add(1, Ordering::SeqCst);
        self.ponder.stop.store(true, Ordering::SeqCst);
    }

    /// What the ponders did so far.
    pub fn ponder_stats(&self) -> PonderStats {
        PonderStats {
            runs: self.ponder.runs.load(Ordering::SeqCst),
            work: self.ponder.work.load(Ordering::SeqCst),
            time: std::time::Duration::from_nanos(self.ponder.nanos.load(Ordering::SeqCst)),
        }
    }

    /// Queues `req`, then ends any ponder: the thread looks for a queued
    /// request before it ponders, so the request cannot be missed.
    fn send(&self, req: Request<G>) {
        self.ponder.asks.fetch_add(1, Ordering::SeqCst);
        if let Some(tx) = &self.tx {
            // A send error drops the request (a search's `reply`, which the
            // handle reports as Failed).
            let _ = tx.send(req);
        }
        self.ponder.stop.store(true, Ordering::SeqCst);
    }

    /// The agent's name.
    pub fn agent_name(&self) -> &str {
        &self.agent_name
    }

    /// Queues a search from the observation `obs` within `limits` and
    /// returns its pending decision. Searches run one at a time, in order.
    pub fn submit(&self, obs: G::Obs, limits: Limits) -> SearchHandle<G::Action> {
        let (reply, rx) = oneshot::channel();
        let generation = self.cancels.load(Ordering::SeqCst);
        let ticket = self.tickets.fetch_add(1, Ordering::SeqCst) + 1;
        self.send(Request::Search {
            obs,
            limits,
            generation,
            ticket,
            reply,
        });
        SearchHandle {
            rx,
            cancelled: self.cancels.clone(),
            generation,
            ticket,
        }
    }

    /// The best move so far of the search with `ticket`
    /// ([`SearchHandle::ticket`]), if its agent offered one
    /// ([`Agent::keep_ready`]): what a client plays when it cannot wait
    /// for the search's answer.
    pub fn ready(&self, ticket: u64) -> Option<G::Action> {
        self.ready.get(ticket)
    }

    /// Searches from `obs` within `limits` on the thread.
    pub async fn search(
        &self,
        obs: G::Obs,
        limits: Limits,
    ) -> Result<Decision<G::Action>, SearchError> {
        self.submit(obs, limits).await
    }

    /// Stops the running search as soon as its budget next looks (it still
    /// answers, with its best move so far) and skips searches queued before
    /// this call (they answer [`SearchError::Cancelled`]). Searches submitted
    /// later run normally: the stop flag is reset before each search.
    pub fn cancel(&self) {
        self.cancels.fetch_add(1, Ordering::SeqCst);
        self.stop.store(true, Ordering::SeqCst);
        self.stop_pondering();
    }

    /// Tells the agent a new game starts (processed in order with searches).
    pub fn new_game(&self) {
        self.send(Request::NewGame);
    }

    /// Tells the agent the game is over, with its view of the final
    /// position (processed in order with searches).
    pub fn game_over(&self, obs: G::Obs) {
        self.send(Request::GameOver(obs));
    }
}

fn serve<G: Model>(
    mut agent: Box<dyn Agent<G>>,
    rx: mpsc::Receiver<Request<G>>,
    stop: &AtomicBool,
    cancels: &AtomicU64,
    ponder: &Ponder,
    ready: &Ready<G::Action>,
) {
    // A request found queued when a ponder was about to start.
    let mut queued: Option<Request<G>> = None;
    loop {
        let req = match queued.take() {
            Some(r) => r,
            None => match rx.recv() {
                Ok(r) => r,
                Err(_) => return,
            },
        };
        match req {
            Request::NewGame => agent.new_game(),
            Request::GameOver(obs) => {
                let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    agent.game_over(&obs)
                }));
                if r.is_err() {
                    tracing::error!(agent = agent.name(), "agent panicked in game_over");
                }
            }
            Request::Search {
                obs,
                limits,
                generation,
                ticket,
                reply,
            } => {
                // Reset first, then check: a cancel racing with this start
                // either skips the search or sets the flag it will see.
                stop.store(false, Ordering::SeqCst);
                if cancels.load(Ordering::SeqCst) != generation || reply.is_closed() {
                    continue;
                }
                ready.begin(ticket);
                let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    agent.select(&obs, &limits, stop)
                }));
                ready.end();
                match run {
                    Ok(d) => {
                        let answered = reply.send(d).is_ok();
                        if answered && ponder.on.load(Ordering::SeqCst) && agent.ponders() {
                            queued = ponder_after(agent.as_mut(), &obs, &d.mv, &rx, ponder);
                        }
                    }
                    Err(_) => tracing::error!(agent = agent.name(), "agent panicked in select"),
                }
            }
        }
    }
}

/// Ponders after the answer `ours` to `obs` until a request comes (it is
/// returned, to be served next), [`SearchThread::stop_pondering`], the
/// agent has nothing more to do, or [`PONDER_CAP`].
///
/// Every request bumps `asks`, is queued, then raises the flag. The flag is
/// reset and `asks` read before the ponder starts: a request queued by then
/// is found by `try_recv`; one queued later raises the flag, and is found
/// when the ponder returns. A raise with no new ask is the late raise of
/// the request just served: the ponder goes on.
fn ponder_after<G: Model>(
    agent: &mut dyn Agent<G>,
    obs: &G::Obs,
    ours: &G::Action,
    rx: &mpsc::Receiver<Request<G>>,
    ponder: &Ponder,
) -> Option<Request<G>> {
    let start = Instant::now();
    let limits = Limits::deadline(Deadline::per_move(start, PONDER_CAP, Duration::ZERO));
    let (mut work, mut queued) = (0, None);
    loop {
        ponder.stop.store(false, Ordering::SeqCst);
        let asks = ponder.asks.load(Ordering::SeqCst);
        if let Ok(r) = rx.try_recv() {
            queued = Some(r);
            break;
        }
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            agent.ponder(obs, ours, &limits, &ponder.stop)
        }));
        let Ok(done) = run else {
            tracing::error!(agent = agent.name(), "agent panicked in ponder");
            break;
        };
        work += done;
        let late_raise = ponder.stop.load(Ordering::SeqCst)
            && ponder.asks.load(Ordering::SeqCst) == asks
            && start.elapsed() < PONDER_CAP;
        if done == 0 || !late_raise {
            if let Ok(r) = rx.try_recv() {
                queued = Some(r);
            }
            break;
        }
    }
    if work > 0 {
        let took = start.elapsed();
        ponder.runs.fetch_add(1, Ordering::SeqCst);
        ponder.work.fetch_add(work, Ordering::SeqCst);
        ponder
            .nanos
            .fetch_add(took.as_nanos() as u64, Ordering::SeqCst);
        tracing::debug!(
            agent = agent.name(),
            work,
            unit = agent.work_unit(),
            ms = took.as_secs_f64() * 1e3,
            "pondered"
        );
    }
    queued
}

impl<G: Model> Drop for SearchThread<G> {
    fn drop(&mut self) {
        self.cancel();
        self.ponder.on.store(false, Ordering::SeqCst);
        self.tx = None;
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::four3d::Board;
    use crate::search::{Budget, Game, RandomAgent};
    use std::sync::Mutex;
    use std::time::{Duration, Instant};

    /// Spins until its budget ends; counts new_game calls.
    struct Spinner {
        games: Arc<Mutex<u32>>,
        thread: Arc<Mutex<Option<std::thread::ThreadId>>>,
    }

    impl Agent<Board> for Spinner {
        fn name(&self) -> &str {
            "spinner"
        }
        fn new_game(&mut self) {
            *self.games.lock().unwrap() += 1;
        }
        fn select(
            &mut self,
            pos: &Board,
            limits: &Limits,
            stop: &AtomicBool,
        ) -> Decision<crate::games::four3d::Peg> {
            *self.thread.lock().unwrap() = Some(std::thread::current().id());
            let mut b = Budget::new(limits, stop).with_check_every(1);
            while b.tick() {
                std::thread::sleep(Duration::from_micros(200));
            }
            Decision {
                mv: pos.legal_moves()[0],
                playouts: b.done(),
                value: None,
            }
        }
    }

    type Shared<T> = Arc<Mutex<T>>;

    fn spinner() -> (Spinner, Shared<u32>, Shared<Option<std::thread::ThreadId>>) {
        let games = Arc::new(Mutex::new(0));
        let thread = Arc::new(Mutex::new(None));
        (
            Spinner {
                games: games.clone(),
                thread: thread.clone(),
            },
            games,
            thread,
        )
    }

    /// Waits until the spinner's first search is running.
    async fn wait_started(started: &Shared<Option<std::thread::ThreadId>>) {
        while started.lock().unwrap().is_none() {
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
    }

    #[tokio::test]
    async fn searches_run_on_the_thread_and_return_legal_moves() {
        let t = SearchThread::<Board>::spawn(Box::new(RandomAgent::new(1)));
        assert_eq!(t.agent_name(), "random");
        let b = Board::new();
        for _ in 0..5 {
            let d = t.search(b, Limits::playouts(10)).await.unwrap();
            assert!(b.is_legal(d.mv));
        }
        let (a, _, thread) = spinner();
        let t = SearchThread::<Board>::spawn(Box::new(a));
        let d = t.search(Board::new(), Limits::playouts(3)).await.unwrap();
        assert_eq!(d.playouts, 3);
        let id = thread.lock().unwrap().unwrap();
        assert_ne!(id, std::thread::current().id());
    }

    #[tokio::test]
    async fn cancel_stops_a_running_search_and_later_searches_run() {
        let (a, _, started) = spinner();
        let t = SearchThread::<Board>::spawn(Box::new(a));
        let start = Instant::now();
        let h = t.submit(Board::new(), Limits::playouts(u64::MAX));
        wait_started(&started).await;
        t.cancel();
        let d = h.await.unwrap();
        assert!(d.playouts > 0);
        assert!(start.elapsed() < Duration::from_secs(2));
        // The flag is reset for the next search.
        let d = t.search(Board::new(), Limits::playouts(5)).await.unwrap();
        assert_eq!(d.playouts, 5);
    }

    #[tokio::test]
    async fn queued_searches_are_skipped_by_cancel() {
        let (a, _, started) = spinner();
        let t = SearchThread::<Board>::spawn(Box::new(a));
        let first = t.submit(Board::new(), Limits::playouts(u64::MAX));
        let second = t.submit(Board::new(), Limits::playouts(5));
        wait_started(&started).await;
        t.cancel();
        assert!(first.await.is_ok());
        assert_eq!(second.await.unwrap_err(), SearchError::Cancelled);
    }

    #[tokio::test]
    async fn new_game_reaches_the_agent_and_drop_joins() {
        let (a, games, _) = spinner();
        let t = SearchThread::<Board>::spawn(Box::new(a));
        t.new_game();
        t.new_game();
        // Searches are processed in order after the new_game calls.
        t.search(Board::new(), Limits::playouts(1)).await.unwrap();
        assert_eq!(*games.lock().unwrap(), 2);
        // Dropping while a long search runs cancels it and joins quickly.
        let h = t.submit(Board::new(), Limits::playouts(u64::MAX));
        tokio::time::sleep(Duration::from_millis(20)).await;
        let start = Instant::now();
        drop(t);
        assert!(start.elapsed() < Duration::from_secs(2));
        // The search was stopped (or, if it had not started, skipped).
        assert!(matches!(h.await, Ok(_) | Err(SearchError::Cancelled)));
    }

    #[tokio::test]
    async fn a_panicking_agent_fails_the_search_without_killing_the_thread() {
        struct Panicker(u32);
        impl Agent<Board> for Panicker {
            fn name(&self) -> &str {
                "panicker"
            }
            fn select(
                &mut self,
                pos: &Board,
                _: &Limits,
                _: &AtomicBool,
            ) -> Decision<crate::games::four3d::Peg> {
                self.0 += 1;
                if self.0 == 1 {
                    panic!("first search panics");
                }
                Decision {
                    mv: pos.legal_moves()[0],
                    playouts: 0,
                    value: None,
                }
            }
        }
        let t = SearchThread::<Board>::spawn(Box::new(Panicker(0)));
        let e = t.search(Board::new(), Limits::playouts(1)).await;
        assert_eq!(e.unwrap_err(), SearchError::Failed);
        assert!(t.search(Board::new(), Limits::playouts(1)).await.is_ok());
    }

    /// Answers at once; ponders (counting) until its flag is raised.
    struct Ponderer {
        pondering: Arc<AtomicBool>,
    }

    impl Agent<Board> for Ponderer {
        fn name(&self) -> &str {
            "ponderer"
        }
        fn select(
            &mut self,
            pos: &Board,
            _: &Limits,
            _: &AtomicBool,
        ) -> Decision<crate::games::four3d::Peg> {
            Decision {
                mv: pos.legal_moves()[0],
                playouts: 1,
                value: None,
            }
        }
        fn ponders(&self) -> bool {
            true
        }
        fn ponder(
            &mut self,
            _: &Board,
            _: &crate::games::four3d::Peg,
            limits: &Limits,
            stop: &Arc<AtomicBool>,
        ) -> u64 {
            self.pondering.store(true, Ordering::SeqCst);
            let mut b = Budget::new(limits, stop).with_check_every(1);
            while b.tick() {
                std::thread::sleep(Duration::from_micros(100));
            }
            self.pondering.store(false, Ordering::SeqCst);
            b.done()
        }
    }

    fn ponderer() -> (SearchThread<Board>, Arc<AtomicBool>) {
        let pondering = Arc::new(AtomicBool::new(false));
        let t = SearchThread::<Board>::spawn(Box::new(Ponderer {
            pondering: pondering.clone(),
        }));
        (t, pondering)
    }

    async fn wait_pondering(flag: &AtomicBool) {
        let start = Instant::now();
        while !flag.load(Ordering::SeqCst) {
            assert!(
                start.elapsed() < Duration::from_secs(5),
                "no ponder started"
            );
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
    }

    #[tokio::test]
    async fn with_ponder_on_the_thread_thinks_after_its_answer_until_the_next_request() {
        let (t, pondering) = ponderer();
        // Off (the default): no ponder.
        t.search(Board::new(), Limits::playouts(1)).await.unwrap();
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert!(!pondering.load(Ordering::SeqCst));
        assert_eq!(t.ponder_stats().runs, 0);
        t.set_ponder(true);
        assert!(t.pondering());
        t.search(Board::new(), Limits::playouts(1)).await.unwrap();
        wait_pondering(&pondering).await;
        tokio::time::sleep(Duration::from_millis(30)).await;
        // A request ends the ponder and is answered at once (the ponder
        // alone would run for a minute).
        let asked = Instant::now();
        t.search(Board::new(), Limits::playouts(1)).await.unwrap();
        assert!(
            asked.elapsed() < Duration::from_millis(500),
            "{:?}",
            asked.elapsed()
        );
        let s = t.ponder_stats();
        assert_eq!(s.runs, 1);
        assert!(s.work > 10 && s.time >= Duration::from_millis(30), "{s:?}");
        // The next ponder is ended by a game over, a new game, a cancel or
        // stop_pondering alike.
        for end in 0..4 {
            wait_pondering(&pondering).await;
            match end {
                0 => t.game_over(Board::new()),
                1 => t.new_game(),
                2 => t.cancel(),
                _ => t.stop_pondering(),
            }
            let start = Instant::now();
            while pondering.load(Ordering::SeqCst) {
                assert!(
                    start.elapsed() < Duration::from_secs(1),
                    "ponder {end} not ended"
                );
                tokio::time::sleep(Duration::from_millis(1)).await;
            }
            t.search(Board::new(), Limits::playouts(1)).await.unwrap();
        }
        // Dropped while pondering: joins at once.
        wait_pondering(&pondering).await;
        let start = Instant::now();
        drop(t);
        assert!(start.elapsed() < Duration::from_millis(500));
    }

    #[tokio::test]
    async fn an_agent_that_does_not_ponder_is_never_asked_to() {
        let (a, _, _) = spinner();
        let t = SearchThread::<Board>::spawn(Box::new(a));
        t.set_ponder(true);
        for _ in 0..3 {
            t.search(Board::new(), Limits::playouts(2)).await.unwrap();
        }
        assert_eq!(t.ponder_stats(), PonderStats::default());
    }
}
