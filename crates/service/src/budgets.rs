//! The send budgets an adapter paces its posts by (see [`crate::store::pace`]): kept in the
//! store, so that every process posting to a chat, or for the whole bot, spends from the same
//! budget and a chat's lane moving to another process resets nothing.

use std::sync::Arc;
use std::time::Duration;

use crate::store::{Allowance, GameStore, Spend, WindowLog, pace::now_millis};

/// The longest an adapter sleeps before it asks a budget again: another process may have
/// been refused meanwhile and left room, and a shutdown should not wait long.
const LONGEST_NAP: Duration = Duration::from_secs(2);

/// Where posts spend from: the store's budgets ([`crate::Service::send_budgets`]), or, for
/// an adapter not yet given them, budgets of its own in memory.
#[derive(Clone, Debug)]
pub struct SendBudgets(Budgets);

#[derive(Clone, Debug)]
enum Budgets {
    Store(Arc<dyn GameStore>),
    Local(Arc<WindowLog>),
}

impl SendBudgets {
    /// The budgets `store` keeps.
    pub(crate) fn in_store(store: Arc<dyn GameStore>) -> SendBudgets {
        SendBudgets(Budgets::Store(store))
    }

    /// Budgets in this process's memory alone (before the store's are known).
    pub fn local() -> SendBudgets {
        SendBudgets(Budgets::Local(Arc::new(WindowLog::default())))
    }

    /// Spends one post from every one of `allowances` now, or from none. If the store
    /// cannot be asked, the post is let through (the platform's own 429 is still honoured,
    /// and a bot whose database is down has worse trouble than a late board).
    pub async fn spend(&self, allowances: &[Allowance]) -> Spend {
        match &self.0 {
            Budgets::Local(log) => log.spend(allowances, now_millis()),
            Budgets::Store(store) => match store.spend(allowances).await {
                Ok(spend) => spend,
                Err(error) => {
                    tracing::warn!(%error, "cannot ask the store for a send budget; sending");
                    Spend::Spent
                }
            },
        }
    }

    /// Waits until one post is spent from every one of `allowances`.
    pub async fn take(&self, allowances: &[Allowance]) {
        while let Spend::Wait(wait) = self.spend(allowances).await {
            tokio::time::sleep(wait.min(LONGEST_NAP)).await;
        }
    }
}
