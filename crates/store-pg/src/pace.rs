//! Send budgets on PostgreSQL: one row per budget with the posts of its window, spent by the
//! `jieqi_spend` function (migration 8) in one statement, so that processes sharing the
//! database spend from one budget per chat, atomically and by the server's clock.

use deadpool_postgres::Object;
use jieqi_store::{Allowance, Spend, StoreError};

use crate::backend;

/// Spends one post from every one of `allowances`, or from none.
pub(crate) async fn spend(client: &Object, allowances: &[Allowance]) -> Result<Spend, StoreError> {
    if allowances.is_empty() {
        return Ok(Spend::Spent);
    }
    let keys: Vec<&str> = allowances.iter().map(|a| a.key.as_str()).collect();
    let most: Vec<i32> = allowances
        .iter()
        .map(|a| i32::try_from(a.most).unwrap_or(i32::MAX))
        .collect();
    let within: Vec<i64> = allowances
        .iter()
        .map(|a| i64::try_from(a.within.as_millis()).unwrap_or(i64::MAX))
        .collect();
    let every: Vec<i64> = allowances
        .iter()
        .map(|a| {
            a.every.map_or(0, |e| {
                i64::try_from(e.as_millis()).unwrap_or(i64::MAX).max(1)
            })
        })
        .collect();
    let keep_free: Vec<i32> = allowances
        .iter()
        .map(|a| i32::try_from(a.keep_free).unwrap_or(i32::MAX))
        .collect();
    let statement = client
        .prepare_cached("SELECT jieqi_spend($1, $2, $3, $4, $5)")
        .await
        .map_err(backend)?;
    let wait: i64 = client
        .query_one(&statement, &[&keys, &most, &within, &every, &keep_free])
        .await
        .map_err(backend)?
        .get(0);
    Ok(match u64::try_from(wait) {
        Ok(0) | Err(_) => Spend::Spent,
        Ok(wait) => Spend::Wait(std::time::Duration::from_millis(wait)),
    })
}
