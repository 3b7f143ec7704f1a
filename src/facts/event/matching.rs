//! A perfect matching of a round's players under a rule of who may meet,
//! found by a backtracking search with a budget.

/// Backtracking search for a pairing of every player; `None` when the
/// budget ran out.
pub(super) fn perfect_matching(
    players: &[String],
    allowed: &dyn Fn(&String, &String) -> bool,
    used: &mut [bool],
    pairs: &mut Vec<(usize, usize)>,
    budget: &mut u64,
) -> Option<bool> {
    let Some(a) = used.iter().position(|u| !u) else {
        return Some(true);
    };
    used[a] = true;
    for b in a + 1..players.len() {
        if used[b] || !allowed(&players[a], &players[b]) {
            continue;
        }
        if *budget == 0 {
            used[a] = false;
            return None;
        }
        *budget -= 1;
        used[b] = true;
        pairs.push((a, b));
        match perfect_matching(players, allowed, used, pairs, budget) {
            Some(true) => return Some(true),
            None => {
                used[a] = false;
                used[b] = false;
                pairs.pop();
                return None;
            }
            Some(false) => {}
        }
        pairs.pop();
        used[b] = false;
    }
    used[a] = false;
    Some(false)
}
