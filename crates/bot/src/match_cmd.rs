//! (in progress)
use std::process::ExitCode;
#[derive(Debug, clap::Args)]
pub struct MatchArgs {}
pub fn run(_: MatchArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("not built yet")
}
