//! Why a batch stopped before its end: a thread it needs could not be
//! started or failed, or its JSON Lines could not be written.

/// Why [`super::run`] stopped.
#[derive(Debug, thiserror::Error)]
pub enum BatchError {
    /// The workers' pool could not be started.
    #[error("{0}")]
    Pool(#[source] rayon::ThreadPoolBuildError),
    #[error("could not start the reading thread: {0}")]
    ReaderStart(#[source] std::io::Error),
    /// The reading thread panicked.
    #[error("the reader thread failed")]
    ReaderFailed,
    /// The JSON Lines (`name`, as the command line gave it) could not be
    /// written.
    #[error("{name}: {source}")]
    Write {
        name: String,
        source: std::io::Error,
    },
}
