//! (in progress: perft, moves, fen)
use std::process::ExitCode;
#[derive(Debug, clap::Args)]
pub struct PerftArgs {}
#[derive(Debug, clap::Args)]
pub struct MovesArgs {}
#[derive(Debug, clap::Args)]
pub struct FenArgs {}
pub fn perft(_: PerftArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("not built yet")
}
pub fn moves(_: MovesArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("not built yet")
}
pub fn fen(_: FenArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("not built yet")
}
