use clap::Parser;

fn main() {
    let cli = arbiter::cli::Cli::parse();
    std::process::exit(arbiter::cli::run(cli));
}
