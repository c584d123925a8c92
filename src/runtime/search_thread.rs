//! A dedicated OS thread owning one agent. Async code submits positions over a
//! std channel and awaits the decision on a tokio oneshot, so the search never
//! runs on (or blocks) an async worker thread.

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Arc};
use std::task::{Context, Poll};
use std::thread::JoinHandle;

use tokio::sync::oneshot;

use crate::model::Model;
use crate::search::{Agent, Decision, Limits};

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
}

/// The pending result of [`SearchThread::submit`]: a future owning no borrow
/// of the thread, so it can be stored and polled in a `select!` loop.
pub struct SearchHandle<M> {
    rx: oneshot::Receiver<Decision<M>>,
    cancelled: Arc<AtomicU64>,
    generation: u64,
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
    pub fn spawn(agent: Box<dyn Agent<G>>) -> Self {
        let (tx, rx) = mpsc::channel::<Request<G>>();
        let stop = Arc::new(AtomicBool::new(false));
        let cancels = Arc::new(AtomicU64::new(0));
        let agent_name = agent.name().to_string();
        let (stop2, cancels2) = (stop.clone(), cancels.clone());
        let thread = std::thread::Builder::new()
            .name(format!("search-{agent_name}"))
            .spawn(move || serve(agent, rx, &stop2, &cancels2))
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
        }
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
        if let Some(tx) = &self.tx {
            // A send error drops `reply`, which the handle reports as Failed.
            let _ = tx.send(Request::Search {
                obs,
                limits,
                generation,
                reply,
            });
        }
        SearchHandle {
            rx,
            cancelled: self.cancels.clone(),
            generation,
        }
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
    }

    /// Tells the agent a new game starts (processed in order with searches).
    pub fn new_game(&self) {
        if let Some(tx) = &self.tx {
            let _ = tx.send(Request::NewGame);
        }
    }

    /// Tells the agent the game is over, with its view of the final
    /// position (processed in order with searches).
    pub fn game_over(&self, obs: G::Obs) {
        if let Some(tx) = &self.tx {
            let _ = tx.send(Request::GameOver(obs));
        }
    }
}

fn serve<G: Model>(
    mut agent: Box<dyn Agent<G>>,
    rx: mpsc::Receiver<Request<G>>,
    stop: &AtomicBool,
    cancels: &AtomicU64,
) {
    while let Ok(req) = rx.recv() {
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
                reply,
            } => {
                // Reset first, then check: a cancel racing with this start
                // either skips the search or sets the flag it will see.
                stop.store(false, Ordering::SeqCst);
                if cancels.load(Ordering::SeqCst) != generation || reply.is_closed() {
                    continue;
                }
                let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    agent.select(&obs, &limits, stop)
                }));
                match run {
                    Ok(d) => {
                        let _ = reply.send(d);
                    }
                    Err(_) => tracing::error!(agent = agent.name(), "agent panicked in select"),
                }
            }
        }
    }
}

impl<G: Model> Drop for SearchThread<G> {
    fn drop(&mut self) {
        self.cancel();
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
}
