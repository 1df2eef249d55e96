//! How many live streams one address, and the whole process, may hold open. A stream is a
//! connection kept open for as long as someone watches; without a cap, one client could take
//! every file descriptor the process has.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

use prometheus_client::metrics::gauge::Gauge;

/// The open streams, per client address and in all.
#[derive(Debug)]
pub(crate) struct StreamLimits {
    per_address: usize,
    total: usize,
    open: Mutex<(HashMap<IpAddr, usize>, usize)>,
    /// The streams open, for the service's metrics page.
    gauge: Gauge,
}

/// One open stream; dropping it gives its place back.
#[derive(Debug)]
pub(crate) struct StreamPermit {
    limits: Arc<StreamLimits>,
    address: IpAddr,
}

impl StreamLimits {
    pub(crate) fn new(per_address: usize, total: usize) -> Arc<StreamLimits> {
        Arc::new(StreamLimits {
            per_address,
            total,
            open: Mutex::new((HashMap::new(), 0)),
            gauge: Gauge::default(),
        })
    }

    /// A place for one more stream from `address`, if it and the process are under their caps.
    pub(crate) fn admit(self: &Arc<Self>, address: IpAddr) -> Option<StreamPermit> {
        let mut open = lock(&self.open);
        let (by_address, total) = &mut *open;
        let mine = by_address.entry(address).or_insert(0);
        if *mine >= self.per_address || *total >= self.total {
            if *mine == 0 {
                by_address.remove(&address);
            }
            return None;
        }
        *mine += 1;
        *total += 1;
        self.gauge.set(*total as i64);
        Some(StreamPermit {
            limits: self.clone(),
            address,
        })
    }

    /// Streams open now.
    pub(crate) fn open(&self) -> usize {
        lock(&self.open).1
    }

    /// The streams open now, as a metric that follows them.
    pub(crate) fn gauge(&self) -> Gauge {
        self.gauge.clone()
    }
}

impl Drop for StreamPermit {
    fn drop(&mut self) {
        let mut open = lock(&self.limits.open);
        let (by_address, total) = &mut *open;
        *total = total.saturating_sub(1);
        self.limits.gauge.set(*total as i64);
        if let Some(mine) = by_address.get_mut(&self.address) {
            *mine = mine.saturating_sub(1);
            if *mine == 0 {
                by_address.remove(&self.address);
            }
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    match mutex.lock() {
        Ok(guard) => guard,
        Err(poisoned) => poisoned.into_inner(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_at_its_cap_is_refused_until_one_of_its_streams_ends() {
        let limits = StreamLimits::new(2, 100);
        let one: IpAddr = "203.0.113.1".parse().expect("address");
        let other: IpAddr = "203.0.113.2".parse().expect("address");
        let a = limits.admit(one).expect("first");
        let _b = limits.admit(one).expect("second");
        assert!(limits.admit(one).is_none());
        assert!(
            limits.admit(other).is_some(),
            "another address is not held up"
        );
        drop(a);
        assert!(limits.admit(one).is_some());
    }

    #[test]
    fn the_process_cap_holds_across_addresses() {
        let limits = StreamLimits::new(10, 2);
        let permits: Vec<_> = (1..=2)
            .map(|i| {
                limits
                    .admit(IpAddr::from([203, 0, 113, i]))
                    .expect("admitted")
            })
            .collect();
        assert!(limits.admit(IpAddr::from([203, 0, 113, 9])).is_none());
        assert_eq!(limits.open(), 2);
        assert_eq!(limits.gauge().get(), 2, "the metric follows");
        drop(permits);
        assert_eq!(limits.open(), 0);
        assert_eq!(limits.gauge().get(), 0);
    }
}
