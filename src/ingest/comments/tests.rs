//! Whole comments typed through [`super::parse_comment`], in each form:
//! TCEC's (an engine move, an early season's, a book move, malformed
//! values), the engine options, the PGN commands and cutechess-cli's.

use super::*;

#[test]
fn tcec_engine_move_every_key() {
    let a = parse_comment(
        "d=30, sd=44, pd=Qxd1, mt=90906, tl=3514094, s=41641210, n=3784769610, pv=dxc5 Qxd1 Rxd1, tb=null, h=26.3, ph=100.0, wv=-M5, R50=49, Rd=-11, Rr=-1000, mb=+0-1+0+0+0,",
    );
    let t = a.tcec().unwrap();
    assert!(!t.book);
    assert_eq!(t.d, Some(30));
    assert_eq!(t.sd, Some(44));
    assert_eq!(t.pd.as_deref(), Some("Qxd1"));
    assert_eq!(t.mt, Some(90906));
    assert_eq!(t.tl, Some(3514094));
    assert_eq!(t.s, Some(41641210));
    assert_eq!(t.n, Some(3784769610));
    assert_eq!(t.pv.as_deref(), Some("dxc5 Qxd1 Rxd1"));
    assert_eq!(t.tb, Some(None));
    assert_eq!(t.h, Some(26.3));
    assert_eq!(t.ph, Some(100.0));
    assert_eq!(t.wv, Some(Score::Mate(-5)));
    assert_eq!(t.r50, Some(49));
    assert_eq!(t.rd, Some(-11));
    assert_eq!(t.rr, Some(-1000));
    assert_eq!(t.mb.unwrap().knights, -1);
    assert!(a.problems.is_empty());
    assert!(a.text.is_empty());
}

#[test]
fn tcec_early_season_forms() {
    let a = parse_comment(
        "d=18, sd=32, mt=00:02:46, tl=01:57:28, s=14000 kN/s, n=2324000000, pv=e4 e5, tb=0, R50=48, wv=0.35,",
    );
    let t = a.tcec().unwrap();
    assert_eq!(t.mt, Some(166_000));
    assert_eq!(t.tl, Some(7_048_000));
    assert_eq!(t.s, Some(14_000_000));
    assert_eq!(t.wv, Some(Score::Cp(35)));
    assert!(a.problems.is_empty(), "{:?}", a.problems);
    let b = parse_comment("d=1, mt=2:xx, s=fast,");
    assert_eq!(b.problems.len(), 2, "{:?}", b.problems);
    // Banksia's TCEC-style comment
    let c = parse_comment("d=12, sd=20, mt=1500, wv=-0.10, r50=47");
    assert_eq!(c.tcec().unwrap().r50, Some(47));
    assert!(c.tcec().unwrap().extra.is_empty());
}

#[test]
fn tcec_book_move() {
    let a = parse_comment("book, mb=+0+0+0+0+0,");
    let t = a.tcec().unwrap();
    assert!(t.book);
    assert_eq!(t.mb.unwrap().pawns, 0);
    assert_eq!(t.wv, None);
}

#[test]
fn malformed_values_are_reported_not_dropped() {
    let a = parse_comment("d=x, mt=12, wv=abc, zz=9,");
    let t = a.tcec().unwrap();
    assert_eq!(t.d, None);
    assert_eq!(t.mt, Some(12));
    assert_eq!(a.problems.len(), 2, "{:?}", a.problems);
    assert_eq!(t.extra, vec![("zz".to_string(), "9".to_string())]);
}

#[test]
fn engine_options_per_side() {
    let a = parse_comment(
        "WhiteEngineOptions: Protocol=uci; Hash=8192; Threads=43; OwnBook=false; Search SMP [Threads count]=30;, BlackEngineOptions: Protocol=uci; CommandLineOptions=--hash 7168 --x;",
    );
    let o = a.engine_options.unwrap();
    assert_eq!(o.white.len(), 5);
    assert_eq!(o.white[1].value, OptionValue::Int(8192));
    assert_eq!(o.white[3].value, OptionValue::Bool(false));
    assert_eq!(o.white[4].name, "Search SMP [Threads count]");
    assert_eq!(
        o.black[1].value,
        OptionValue::Text("--hash 7168 --x".into())
    );
}

#[test]
fn pgn_commands_and_leftover_text() {
    let a = parse_comment("[%clk 1:59:58.5] good move [%emt 0:00:05] [%eval #-3] [%cal Ge2e4]");
    assert_eq!(a.clk, Some(7_198_500));
    assert_eq!(a.emt, Some(5_000));
    assert_eq!(a.eval.unwrap().score, Score::Mate(-3));
    assert_eq!(a.commands, vec![("cal".to_string(), "Ge2e4".to_string())]);
    assert_eq!(a.text, "good move");
    let b = parse_comment("[%eval 0.35,20]");
    assert_eq!(
        b.eval,
        Some(EvalCommand {
            score: Score::Cp(35),
            depth: Some(20)
        })
    );
}

#[test]
fn cutechess_comments() {
    let a = parse_comment("+0.35/24 1.2s");
    let c = a.cutechess().unwrap();
    assert_eq!(c.reported.score, Some(Score::Cp(35)));
    assert_eq!(c.reported.depth, Some(24));
    assert_eq!(c.reported.time_ms, Some(1200));
    let b = parse_comment("+M1/1 0.012s, White mates");
    let b = b.cutechess().unwrap();
    assert_eq!(b.reported.score, Some(Score::Mate(1)));
    assert_eq!(b.note.as_deref(), Some("White mates"));
    assert!(parse_comment("book").tcec().unwrap().book);
    assert_eq!(parse_comment("just a remark").text, "just a remark");
}
