//! The engine log's tests: `info` lines read in place give the log read
//! whole; cutechess-cli's debug lines, transcripts, xboard traffic, and a
//! search's `info` lines summed up.

use super::*;

/// The log as it was read before `info` lines had their numbers read in
/// place: every line read whole (`parse_line`) and folded by
/// `Track::take`.
fn read_whole(text: &str) -> EngineLog {
    read_text(Reader::whole(), text)
}

/// The recorded logs, and logs made of their lines and of `info` lines
/// of every shape (bounds, strings, xboard thinking lines, lines
/// between two searches, two engines interleaved), read with the
/// numbers of `info` lines taken in place: the same log as read whole.
#[test]
fn info_lines_read_in_place_give_the_log_read_whole() {
    let here = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut texts: Vec<String> = [
        "tests/fixtures/logs/cutechess/debug.log",
        "tests/fixtures/logs/stockfish-vs-glaurung/engine.log",
        "tests/fixtures/logs/stockfish-vs-glaurung/opponent.log",
        "samples/tcec-s15/clean/debug.log",
        "samples/kasparov-deep-junior-2003/clean/engine.log",
    ]
    .iter()
    .map(|f| std::fs::read_to_string(here.join(f)).unwrap())
    .collect();
    let pieces = [
        "info depth 3 score cp 12 pv e2e4 e7e5",
        "info depth 4 score cp -5 upperbound nodes 9 pv d2d4",
        "info depth 4 seldepth 7 score mate 3 lowerbound time 10 pv g1f3",
        "info string NNUE evaluation enabled",
        "info depth 5 string deep pv here",
        "info nodes 100 nps 200",
        "info score cp 30",
        "info depth pv e2e4",
        "info  depth\t6   score cp 7  pv  a2a3 ",
        "info\u{a0}depth 7 score cp 8",
        "info depth\u{2003}8 score cp 9 pv é2e4",
        "info\x0bdepth 9\x0cscore cp 10",
        "info",
        "infox depth 3 score cp 1",
        "12 35 170 4000 e2e4 e7e5",
        "3 -100000 5 9 e2e4",
        "4 100001 6 10",
        "5 7 x 9 e2e4",
        "6 8 9",
        "+7 -8 10 11 d2d4",
        "9223372036854775807 1 922337203685477581 1 a2a3",
        "1 -9223372036854775808 1 1",
        "\u{a0}8 9 10 11 e2e4",
        "bestmove e2e4 ponder e7e5",
        "position startpos moves e2e4",
        "go wtime 1000 btime 1000",
    ];
    let mut rng = crate::test_rng::Lcg(0x2545_F491_4F6C_DD1D);
    for _ in 0..200 {
        let mut text = String::new();
        for k in 0..60 {
            let piece = pieces[rng.below(pieces.len())];
            let (dir, engine) = match rng.below(4) {
                0 => ('>', "A(0)"),
                1 => ('<', "B(1)"),
                _ => ('<', "A(0)"),
            };
            let piece = if rng.below(5) == 0 {
                "go depth 9"
            } else {
                piece
            };
            text.push_str(&format!("{} {dir}{engine}: {piece}\n", 1000 + k * 7));
        }
        texts.push(text);
    }
    let mut scored = 0;
    for text in &texts {
        let want = read_whole(text);
        assert_eq!(parse(text), want);
        scored += want
            .engines
            .iter()
            .flat_map(|e| &e.activities)
            .filter(|a| matches!(a, Activity::Search(s) if s.infos.last_scored.is_some()))
            .count();
    }
    assert!(scored > 300, "{scored}");
}

#[test]
fn cutechess_debug_lines() {
    let text = "3 >stock1(0): uci\n98 <stock1(0): id name Stockfish 261014 64\n\
         120 >stock1(0): setoption name Hash value 128\n\
         200 >stock1(0): position startpos moves e2e4\n201 >stock1(0): go wtime 59000 btime 60000 winc 0 binc 0\n\
         250 <stock1(0): info depth 10 seldepth 14 score cp -25 upperbound nodes 12000 nps 240000 time 50 pv e7e5 g1f3\n\
         400 <stock1(0): bestmove e7e5 ponder g1f3\n\
         Started game 1 of 2 (a vs b)\n";
    let log = parse(text);
    let lines: Vec<Line> = traffic(text).collect();
    assert!(log.errors.is_empty(), "{:?}", log.errors);
    assert_eq!(lines.len(), 7);
    assert_eq!(log.notes.len(), 1);
    assert_eq!(log.engines(), vec!["stock1(0)"]);
    assert_eq!(lines[0].engine, "stock1(0)");
    assert_eq!(
        lines[2].msg,
        Msg::SetOption {
            name: "Hash".into(),
            value: "128".into()
        }
    );
    let acts = activities(&log, "stock1(0)");
    let Activity::Search(s) = &acts[1] else {
        panic!("{acts:?}")
    };
    assert_eq!(s.moves, vec!["e2e4"]);
    assert_eq!(s.go.clock[0], Some(59000));
    let fin = s.last_scored().unwrap();
    assert_eq!(fin.cp, Some(-25));
    assert_eq!(fin.bound.as_deref(), Some("upperbound"));
    assert_eq!((s.infos.depth, s.infos.seldepth), (Some(10), Some(14)));
    assert_eq!(s.bestmove.as_ref().unwrap().0, "e7e5");
    assert_eq!(s.elapsed(), Some(199));
}

#[test]
fn transcript_lines_and_errors() {
    let text = "# engine: Stockfish 15.1\n2003-01-26T20:00:00.000Z > uci\n2003-01-26T20:00:00.010Z < uciok\n\
         2003-01-26T20:00:01Z ! exit 139\n2003-01-26T20:00:02Z ? what\n2003-01-26T20:00:03Z\n";
    let log = parse(text);
    let lines: Vec<Line> = traffic(text).collect();
    assert_eq!(log.meta["engine"], "Stockfish 15.1");
    assert_eq!(lines.len(), 3);
    assert!(lines[0].absolute);
    assert_eq!(lines[2].msg, Msg::Exit(Some(139)));
    assert_eq!(log.errors.len(), 2);
    assert_eq!(log.errors[0].span.line, 5);
    assert!(log.errors[0].message.contains("expected a direction"));
}

#[test]
fn xboard_traffic() {
    let text = "0 >gnuchess(0): xboard\n1 >gnuchess(0): protover 2\n5 <gnuchess(0): feature myname=\"GNU Chess\" done=1\n\
         10 >gnuchess(0): new\n11 >gnuchess(0): time 6000\n11 >gnuchess(0): otim 6000\n12 >gnuchess(0): e2e4\n\
         300 <gnuchess(0): 7 -25 120 45000 e7e5 g1f3\n400 <gnuchess(0): move e7e5\n";
    let log = parse(text);
    let lines: Vec<Line> = traffic(text).collect();
    assert!(log.errors.is_empty(), "{:?}", log.errors);
    assert_eq!(
        lines[4].msg,
        Msg::XTime {
            own: true,
            cs: 6000
        }
    );
    assert_eq!(lines[6].msg, Msg::XUserMove("e2e4".into()));
    let acts = activities(&log, "gnuchess(0)");
    // a move sent to an engine not in force mode starts its search
    let [Activity::Search(s)] = acts else {
        panic!("{acts:?}")
    };
    assert_eq!(s.moves, vec!["e2e4"]);
    assert_eq!(s.bestmove.as_ref().unwrap().0, "e7e5");
    assert_eq!(s.infos.lines, 1);
    let Msg::Info(i) = &lines[7].msg else {
        panic!("{:?}", lines[7].msg)
    };
    assert_eq!(
        (i.depth, i.cp, i.time, i.nodes),
        (Some(7), Some(-25), Some(1200), Some(45000))
    );
    assert_eq!(lines[8].msg, Msg::XMove("e7e5".into()));
}

#[test]
fn a_search_sums_up_its_info_lines() {
    let text = "0 > position startpos\n1 > go movetime 100\n\
         2 < info depth 1 seldepth 1 score cp 10 nodes 20 time 1 pv e2e4\n\
         3 < info depth 2 score cp 12 nodes 80 pv d2d4\n\
         4 < info depth 2 seldepth 5 nodes 150\n\
         5 < info depth 4 score mate 3 lowerbound nodes 900 nps 9000 time 9 pv g1f3\n\
         6 < info nodes 1000 nps 10000 string only counters\n\
         9 < bestmove g1f3\n";
    let log = parse(text);
    let acts = activities(&log, "");
    let [Activity::Search(s)] = acts else {
        panic!("{acts:?}")
    };
    let i = &s.infos;
    // the last line (no depth, no score) is not one of the search's lines
    assert_eq!((i.lines, i.iterations, i.scored_iterations), (4, 4, 3));
    assert_eq!(
        (i.depth, i.seldepth, i.nodes, i.nps, i.time),
        (Some(4), Some(5), Some(900), Some(9000), Some(9))
    );
    let fin = s.last_scored().unwrap();
    assert_eq!(
        (fin.mate, fin.cp, fin.pv.as_slice()),
        (Some(3), None, &["g1f3".to_string()][..])
    );
    // depths 1, 2 and 4 were scored: 3 is missing
    assert_eq!(
        i.scored_depths.iter().copied().collect::<Vec<_>>(),
        vec![1, 2, 4]
    );
    assert!(!i.depths_complete());
    assert!(!Infos::default().depths_complete());
    let backwards = parse("5 > uci\n3 > isready\n7 < readyok\n");
    assert_eq!(backwards.backwards.len(), 1);
    assert_eq!(
        (
            backwards.backwards[0].span.line,
            backwards.backwards[0].earlier_ms
        ),
        (2, 2)
    );
}

#[test]
fn setoption_names_with_spaces() {
    assert_eq!(
        parse_msg(Dir::ToEngine, "setoption name Use NNUE value false"),
        Msg::SetOption {
            name: "Use NNUE".into(),
            value: "false".into()
        }
    );
    assert_eq!(
        parse_msg(Dir::ToEngine, "setoption name Clear Hash"),
        Msg::SetOption {
            name: "Clear Hash".into(),
            value: String::new()
        }
    );
}

/// fastchess writes the time of day only: a log running past midnight goes
/// on forward (no timestamp goes backwards), in ms since the first
/// midnight.
#[test]
fn fastchess_times_go_on_past_midnight() {
    let text = "[Engine] [23:59:59.900000] <  7>  sf <--- position startpos\n\
         [Engine] [23:59:59.950000] <  7>  sf <--- go wtime 1000 btime 1000\n\
         [Engine] [00:00:00.250000] <  7>  sf ---> bestmove e2e4\n";
    let log = parse(text);
    assert!(log.errors.is_empty(), "{:?}", log.errors);
    assert!(log.backwards.is_empty(), "{:?}", log.backwards);
    assert_eq!(log.engines(), vec!["sf"]);
    let Activity::Search(s) = &log.engines[0].activities[0] else {
        panic!("{log:?}")
    };
    assert_eq!(s.started.time, 86_399_950);
    assert!(!s.started.absolute);
    let (mv, _, at) = s.bestmove.as_ref().unwrap();
    assert_eq!(
        (mv.as_str(), at.time, at.at.as_str()),
        ("e2e4", 86_400_250, "00:00:00.250000")
    );
}

/// A fastchess `[Engine]` line without its arrow is an unreadable line;
/// fastchess's own lines are notes.
#[test]
fn fastchess_lines_read_or_said() {
    let text = "[TRACE ] [05:09:04.933995] <   7> fastchess --- Game 1 between a and b starting\n\
         [Engine] [05:09:04.937409] <   7>  sf uci\n";
    let log = parse(text);
    assert_eq!(log.notes.len(), 1);
    assert_eq!(log.errors.len(), 1, "{:?}", log.errors);
    assert_eq!(log.errors[0].span.line, 2);
}
