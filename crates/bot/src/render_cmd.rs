//! (in progress)
use std::process::ExitCode;
#[derive(Debug, clap::Args)]
pub struct RenderArgs {}
pub fn run(_: RenderArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("not built yet")
}
