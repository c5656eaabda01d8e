//! The `sudoku-lens` command line.

mod cli;

use std::process::ExitCode;

use clap::{CommandFactory, Parser};

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    let Some(command) = args.command else {
        // With no command: the desktop app.
        return match sudoku_lens::app::run(Default::default()) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("sudoku-lens: {e}");
                let _ = cli::Cli::command().print_long_help();
                cli::Status::Malformed.into()
            }
        };
    };
    match cli::run(command) {
        Ok(status) => status.into(),
        Err(e) => {
            eprintln!("sudoku-lens: {e}");
            cli::Status::Malformed.into()
        }
    }
}
