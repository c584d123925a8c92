//! Run-time plumbing shared by the server and the client.
//!
//! - [`search_thread`]: a dedicated OS thread that runs an agent's search, so
//!   CPU-bound work never blocks an async runtime's worker threads.

pub mod search_thread;

pub use search_thread::{SearchError, SearchHandle, SearchThread};
