//! (in progress)
use std::process::ExitCode;
#[derive(Debug, clap::Args)]
pub struct LocalArgs {}
pub fn run(_: LocalArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("not built yet")
}
