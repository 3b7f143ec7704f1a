//! `arbiter replay`'s output: one ply of a game as text (board, move,
//! counters, what its comments recorded and the values they are typed
//! into, the ruleset's live values) or as one JSON object.

use serde_json::json;
use shakmaty::Color;

use super::json::{recorded, typed, value};
use super::text::{board, clean};
use crate::pipeline::{Config, GameAudit};
use crate::replay::Ply;

/// Ply `p` of game `game` (1 = the first) as a JSON line's object.
pub fn ply_json(g: &GameAudit, game: usize, p: &Ply, cfg: &Config) -> serde_json::Value {
    json!({
        "game": game,
        "ply": p.ply,
        "move_number": p.move_number,
        "side": if p.side == Color::White { "white" } else { "black" },
        "san": p.san_text(),
        "written": g.game.written_of(p.move_index),
        "uci": p.uci_text(),
        "fen": g.replay.fen_after(p),
        "halfmove_clock": p.halfmove_clock,
        "repetition": p.repetition,
        "capture": p.capture,
        "pawn_move": p.pawn_move,
        "castling_rights_changed": p.castling_rights_changed,
        "pieces": p.pieces,
        "check": p.check,
        "checkmate": p.checkmate,
        "stalemate": p.stalemate,
        "insufficient_material": p.insufficient_material,
        "threefold": p.threefold(),
        "fifty_moves": p.fifty_moves(),
        "span": g.game.moves[p.move_index].span,
        "recorded": recorded(g, p),
        "typed": typed(g, p),
        "rules": live(g, cfg, p.ply),
    })
}

/// Ply `p` as text: the move and where it is written, the board, the
/// counters and flags, what was recorded, typed, and the rules' values;
/// a blank line after.
pub fn ply_text(g: &GameAudit, p: &Ply, cfg: &Config) -> String {
    let dots = if p.side == Color::White { "." } else { "..." };
    let at = g.game.moves[p.move_index].span.map_or(String::new(), |s| {
        format!("  [line {}:{}]", s.line, s.column)
    });
    let mut s = format!("ply {}: {}{dots} {}{at}\n", p.ply, p.move_number, p.san);
    s.push_str(&format!(
        "{}\n",
        board(
            &g.replay
                .position_after((p.ply - g.replay.first_ply) as usize)
        )
    ));
    let mut facts = vec![format!("halfmove clock {}", p.halfmove_clock)];
    if p.repetition > 1 {
        facts.push(format!("position seen {} times", p.repetition));
    }
    for (flag, name) in [
        (p.capture, "capture"),
        (p.castling_rights_changed, "castling rights changed"),
        (p.checkmate, "checkmate"),
        (p.stalemate, "stalemate"),
        (p.insufficient_material, "insufficient material"),
    ] {
        if flag {
            facts.push(name.to_string());
        }
    }
    s.push_str(&format!("  {}\n", facts.join(", ")));
    if let serde_json::Value::Object(m) = &recorded(g, p)
        && !m.is_empty()
    {
        let shown: Vec<String> = m
            .iter()
            .filter(|(k, _)| k.as_str() != "pv")
            .map(|(k, v)| format!("{k}={}", clean(&v.to_string())))
            .collect();
        s.push_str(&format!("  recorded: {}\n", shown.join(" ")));
    }
    if let Some(line) = typed_line(g.game.comments_of(&g.game.moves[p.move_index]), p.side) {
        s.push_str(&format!("  typed: {line}\n"));
    }
    if let serde_json::Value::Object(m) = live(g, cfg, p.ply)
        && !m.is_empty()
    {
        let shown: Vec<String> = m
            .iter()
            .map(|(k, v)| format!("{k}={}", clean(&v.to_string())))
            .collect();
        s.push_str(&format!("  rules:    {}\n", shown.join(" ")));
    }
    s.push('\n');
    s
}

/// The typed values of a move for `replay`'s text: `eval +0.35 (White's
/// view), depth 24, move time 1.200s, clock 1:59:58.000`, or `None`.
fn typed_line(comments: &[crate::ingest::pgn::Comment], side: Color) -> Option<String> {
    use crate::ingest::comments::Score;
    let t = crate::ingest::comments::MoveComments::of(comments).typed(side);
    let secs = |ms: i64| {
        format!(
            "{}{}.{:03}",
            if ms < 0 { "-" } else { "" },
            ms.abs() / 1000,
            ms.abs() % 1000
        )
    };
    let clock = |ms: i64| {
        let a = ms.abs();
        format!(
            "{}{}:{:02}:{:02}.{:03}",
            if ms < 0 { "-" } else { "" },
            a / 3_600_000,
            a / 60_000 % 60,
            a / 1000 % 60,
            a % 1000
        )
    };
    let mut parts = Vec::new();
    if let Some(e) = t.white_eval {
        parts.push(match e {
            Score::Cp(cp) => format!(
                "eval {}{}.{:02} (White's view)",
                if cp < 0 { "-" } else { "+" },
                cp.abs() / 100,
                cp.abs() % 100
            ),
            Score::Mate(m) => format!("eval mate {m:+} (White's view)"),
        });
    }
    if let Some(d) = t.depth {
        parts.push(format!("depth {d}"));
    }
    if let Some(ms) = t.move_time_ms {
        parts.push(format!("move time {}s", secs(ms)));
    }
    if let Some(ms) = t.clock_left_ms {
        parts.push(format!("clock {}", clock(ms)));
    }
    (!parts.is_empty()).then(|| parts.join(", "))
}

/// The ruleset's live values (`let`s) at a ply, by name.
fn live(g: &GameAudit, cfg: &Config, ply: u32) -> serde_json::Value {
    let mut m = serde_json::Map::new();
    if let (Some(rs), Some(j)) = (&cfg.ruleset, &g.judgement)
        && let Some((_, vals)) = j.trace.iter().find(|(p, _)| *p == ply)
    {
        for (l, v) in rs.lets.iter().zip(vals) {
            m.insert(l.name.clone(), value(v));
        }
    }
    serde_json::Value::Object(m)
}
