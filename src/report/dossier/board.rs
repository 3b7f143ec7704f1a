//! The dossier's board: one renderer for every board it shows.
//!
//! The pieces are arbiter's own set, drawn here as simple SVG shapes and
//! written once as `<symbol>`s ([`piece_symbols`]); every board places them
//! with `<use href="#piece-wK">`, so a board looks the same whatever fonts
//! are installed. The page holds the symbols once ([`page_defs`]); a board
//! written to a file of its own ([`board_svg`]) holds those it uses.
//!
//! A board is drawn from White's side: the squares, the last move's from-
//! and to-squares marked, the files a–h and ranks 1–8 on the edge squares,
//! the pieces, and beside the board a marker of the side to move (at
//! White's edge when White is to move, at Black's when Black is), which
//! the board's label and the marker's title also say in words. The page's
//! stepper redraws only the pieces, the two marked squares and the marker
//! of a board drawn here (`data-s` gives the square's size).

use std::fmt::Write as _;

use shakmaty::{Chess, Color, Position, Role, Square, fen::Fen};

use super::escape_html;

/// The squares' colours: light, dark.
const SQUARES: [&str; 2] = ["#f0d9b5", "#b58863"];
/// The colour over the last move's squares.
const LAST: &str = "#cdd14a";
/// A white piece's fill and outline, and a black piece's.
const WHITE_PIECE: (&str, &str) = ("#fafafa", "#1e1e1e");
const BLACK_PIECE: (&str, &str) = ("#262626", "#f2f2f2");

/// Each piece's shapes on a 45×45 grid, the piece's fill and outline
/// inherited; `S` stands for the outline's colour where a detail is filled
/// with it.
const SHAPES: [(char, &str); 6] = [
    (
        'P',
        "<circle cx=\"22.5\" cy=\"13\" r=\"5.5\"/><path d=\"M18.5 18.5h8l-1.5 3.5c3 2.5 5 6.5 5.5 12h-16c.5-5.5 2.5-9.5 5.5-12z\"/><rect x=\"11\" y=\"33.5\" width=\"23\" height=\"5.5\" rx=\"2\"/>",
    ),
    (
        'N',
        "<path d=\"M13 39h21c.5-9-1-17-4.5-22.5-2.5-4-6-7-10-8l-1.5-3.5-2.5 4.5c-3 1.5-5 4-6.5 7l-3 5.5c-1 2 .5 4 2.5 3.5l3-1.5 3.5-1c1.5-.5 3-1.5 4-3 .5 3-1.5 6-4 8.5-3 3-4.5 6.5-4 10.5z\"/><circle cx=\"17.5\" cy=\"14.5\" r=\"1.3\" fill=\"S\" stroke=\"none\"/>",
    ),
    (
        'B',
        "<circle cx=\"22.5\" cy=\"7\" r=\"2.6\"/><path d=\"M22.5 9.5c-5 4-8.5 8.5-8.5 13.5 0 4.5 2.5 7 3.5 10.5h10c1-3.5 3.5-6 3.5-10.5 0-5-3.5-9.5-8.5-13.5z\"/><path d=\"M25.5 15.5l-4.5 6M17 28.5h11\" fill=\"none\"/><rect x=\"11\" y=\"33.5\" width=\"23\" height=\"5.5\" rx=\"2\"/>",
    ),
    (
        'R',
        "<path d=\"M12 18.5v-10h4.5v3.5h4v-3.5h4v3.5h4v-3.5h4.5v10z\"/><path d=\"M14.5 33.5l1.5-15h13l1.5 15z\"/><rect x=\"10.5\" y=\"33.5\" width=\"24\" height=\"5.5\" rx=\"1.5\"/>",
    ),
    (
        'Q',
        "<path d=\"M11.5 33.5l-3-19 7 10.5.5-13.5 5 13 1.5-14.5 1.5 14.5 5-13 .5 13.5 7-10.5-3 19z\"/><circle cx=\"8.5\" cy=\"13.5\" r=\"2.2\"/><circle cx=\"16\" cy=\"10\" r=\"2.2\"/><circle cx=\"22.5\" cy=\"8\" r=\"2.2\"/><circle cx=\"29\" cy=\"10\" r=\"2.2\"/><circle cx=\"36.5\" cy=\"13.5\" r=\"2.2\"/><path d=\"M13 28.5h19\" fill=\"none\"/><rect x=\"10\" y=\"33.5\" width=\"25\" height=\"5.5\" rx=\"2\"/>",
    ),
    (
        'K',
        "<path d=\"M21 4.5h3v4h4v3h-4v6h-3v-6h-4v-3h4z\"/><path d=\"M11.5 33.5c-3-6-4-12.5 1-15.5 4-2.5 8.5 0 10 4.5 1.5-4.5 6-7 10-4.5 5 3 4 9.5 1 15.5z\"/><path d=\"M13.5 28.5h18\" fill=\"none\"/><rect x=\"10\" y=\"33.5\" width=\"25\" height=\"5.5\" rx=\"2\"/>",
    ),
];

/// The symbol of one piece: `piece-` then `w` or `b` then the letter.
fn symbol(white: bool, letter: char) -> String {
    let (fill, stroke) = if white { WHITE_PIECE } else { BLACK_PIECE };
    let shapes = SHAPES
        .iter()
        .find(|s| s.0 == letter)
        .map_or("", |s| s.1)
        .replace("\"S\"", &format!("\"{stroke}\""));
    format!(
        "<symbol id=\"piece-{}{letter}\" viewBox=\"3 2 39 39\"><g fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"1.5\" stroke-linejoin=\"round\" stroke-linecap=\"round\">{shapes}</g></symbol>",
        if white { 'w' } else { 'b' }
    )
}

/// The twelve pieces' symbols (or only those `wanted` names), for a
/// `<defs>`.
pub fn piece_symbols(wanted: Option<&[String]>) -> String {
    let mut o = String::new();
    for white in [true, false] {
        for (letter, _) in SHAPES {
            let id = format!("piece-{}{letter}", if white { 'w' } else { 'b' });
            if wanted.is_none_or(|w| w.contains(&id)) {
                o.push_str(&symbol(white, letter));
            }
        }
    }
    o
}

/// The page's one copy of the pieces: a hidden SVG holding their symbols.
pub fn page_defs() -> String {
    format!(
        "<svg class=\"defs\" xmlns=\"http://www.w3.org/2000/svg\" width=\"0\" height=\"0\" aria-hidden=\"true\" focusable=\"false\"><defs>{}</defs></svg>\n",
        piece_symbols(None)
    )
}

fn letter(role: Role) -> char {
    match role {
        Role::King => 'K',
        Role::Queen => 'Q',
        Role::Rook => 'R',
        Role::Bishop => 'B',
        Role::Knight => 'N',
        Role::Pawn => 'P',
    }
}

/// The board as a standalone SVG (with the symbols of its pieces), White
/// at the bottom, the move's squares marked.
pub fn board_svg(fen: &str, from: Option<Square>, to: Option<Square>, size: u32) -> String {
    draw(fen, (from, to), size, true)
}

/// The board for the page, whose one [`page_defs`] holds the pieces.
pub(crate) fn board_in_page(
    fen: &str,
    from: Option<Square>,
    to: Option<Square>,
    size: u32,
) -> String {
    draw(fen, (from, to), size, false)
}

/// Whose move it is after `fen`, in words.
pub(crate) fn to_move(fen: &str) -> &'static str {
    if fen.split(' ').nth(1) == Some("b") {
        "Black to move"
    } else {
        "White to move"
    }
}

fn draw(fen: &str, last: (Option<Square>, Option<Square>), size: u32, defs: bool) -> String {
    let pos: Option<Chess> = fen
        .parse::<Fen>()
        .ok()
        .and_then(|f| f.into_position(shakmaty::CastlingMode::Chess960).ok());
    let s = size / 8;
    let board = s * 8;
    let gutter = s / 2;
    let turn = to_move(fen);
    let mut o = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"board\" width=\"{0}\" height=\"{board}\" viewBox=\"0 0 {0} {board}\" role=\"img\" aria-label=\"{1}; {turn}\" data-s=\"{s}\">",
        board + gutter,
        escape_html(fen)
    );
    let mut pieces = String::new();
    let mut used: Vec<String> = Vec::new();
    for rank in 0..8u32 {
        for file in 0..8u32 {
            let sq = Square::from_coords(shakmaty::File::new(file), shakmaty::Rank::new(7 - rank));
            let _ = write!(
                o,
                "<rect x=\"{}\" y=\"{}\" width=\"{s}\" height=\"{s}\" fill=\"{}\"/>",
                file * s,
                rank * s,
                SQUARES[((file + rank) % 2) as usize]
            );
            if let Some(p) = pos.as_ref().and_then(|p| p.board().piece_at(sq)) {
                let id = format!(
                    "piece-{}{}",
                    if p.color.is_white() { 'w' } else { 'b' },
                    letter(p.role)
                );
                let _ = write!(
                    pieces,
                    "<use href=\"#{id}\" x=\"{}\" y=\"{}\" width=\"{s}\" height=\"{s}\"/>",
                    file * s,
                    rank * s
                );
                if !used.contains(&id) {
                    used.push(id);
                }
            }
        }
    }
    // the last move's squares, over the squares (hidden when there is none)
    for sq in [last.0, last.1] {
        let (x, y) = sq.map_or((0, 0), |q| {
            (u32::from(q.file()) * s, (7 - u32::from(q.rank())) * s)
        });
        let _ = write!(
            o,
            "<rect class=\"last\" x=\"{x}\" y=\"{y}\" width=\"{s}\" height=\"{s}\" fill=\"{LAST}\" fill-opacity=\"0.75\"{}/>",
            if sq.is_some() {
                ""
            } else {
                " visibility=\"hidden\""
            }
        );
    }
    o.push_str(&coordinates(s));
    if defs {
        let _ = write!(o, "<defs>{}</defs>", piece_symbols(Some(&used)));
    }
    let _ = write!(o, "<g class=\"pieces\">{pieces}</g>");
    // the side to move, beside the board at its edge
    let white = pos
        .as_ref()
        .map_or(turn.starts_with('W'), |p| p.turn() == Color::White);
    let (fill, stroke) = if white { WHITE_PIECE } else { BLACK_PIECE };
    let r = s / 4;
    let cy = if white { board - s / 2 } else { s / 2 };
    let _ = write!(
        o,
        "<circle class=\"turn\" data-side=\"{}\" cx=\"{}\" cy=\"{cy}\" r=\"{r}\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"1.5\"><title>{}</title></circle></svg>",
        if white { 'w' } else { 'b' },
        board + gutter / 2,
        if white {
            "White to move"
        } else {
            "Black to move"
        }
    );
    o
}

/// The files on the first rank's squares (bottom right) and the ranks on
/// the a-file's (top left), each in the colour of the other squares.
fn coordinates(s: u32) -> String {
    let font = (s * 3 / 10).max(10);
    let mut o = format!(
        "<g class=\"coords\" font-family=\"sans-serif\" font-size=\"{font}\" font-weight=\"bold\" aria-hidden=\"true\">"
    );
    for file in 0..8u32 {
        // a1 is dark: the first rank's square of file f is light when f is
        // odd, and then its letter is in the dark squares' colour
        let colour = SQUARES[(file % 2) as usize];
        let _ = write!(
            o,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\" fill=\"{colour}\">{}</text>",
            file * s + s - 2,
            8 * s - 3,
            char::from(b'a' + file as u8)
        );
    }
    for rank in 0..8u32 {
        // the a-file's square on row `rank` (from the top) is light when
        // `rank` is even, and then its number is in the dark squares' colour
        let colour = SQUARES[(rank % 2 == 0) as usize];
        let _ = write!(
            o,
            "<text x=\"2\" y=\"{}\" fill=\"{colour}\">{}</text>",
            rank * s + font,
            8 - rank
        );
    }
    o.push_str("</g>");
    o
}
