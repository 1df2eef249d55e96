//! A mutex guard whatever happened to the mutex: the service's shared state stays usable
//! after a task panicked while holding it (each holder leaves it consistent between
//! statements).

use std::sync::Mutex;

pub(crate) fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    match mutex.lock() {
        Ok(guard) => guard,
        Err(poisoned) => poisoned.into_inner(),
    }
}
