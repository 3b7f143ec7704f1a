//! An event's games as its items read them: each game's sides as entrant
//! names, and the points each result gives under the event's scoring.

use super::game::GameInfo;

/// What every item of an event's case reads of its games.
pub(super) struct EventGames<'a> {
    pub name: &'a str,
    /// The games, in the event's order.
    pub games: &'a [GameInfo],
    /// Entrant name (display) of each game's White and Black.
    pub sides: &'a [(String, String)],
    /// The points of a win, a draw, a loss and a bye.
    pub win: f64,
    pub draw: f64,
    pub loss: f64,
    pub bye: f64,
}

impl EventGames<'_> {
    /// White's and Black's points for `result`; `None` for a game not
    /// finished.
    pub fn points_of(&self, result: &str) -> Option<(f64, f64)> {
        let (win, draw, loss) = (self.win, self.draw, self.loss);
        match result {
            "1-0" => Some((win, loss)),
            "0-1" => Some((loss, win)),
            "1/2-1/2" => Some((draw, draw)),
            _ => None,
        }
    }
}
