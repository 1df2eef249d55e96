//! (in progress)
use std::process::ExitCode;
#[derive(Debug, clap::Args)]
pub struct RunArgs {}
pub fn run(_: RunArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("not built yet")
}
