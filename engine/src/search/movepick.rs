//! The move picker: hands the search one move at a time, best guess first, doing as little
//! work as it can before the move that cuts off.
//!
//! Stages of a main-search node: the hash move, tried before any move is generated (it cuts
//! off often enough that many nodes never generate at all); then the captures (and, in chess,
//! promotions) that do not lose material by SEE, by most valuable victim, then capture history;
//! then the two killers; then the quiet moves by butterfly (in the slot of the threats to
//! their squares) and continuation history: the first few each picked as the best of those
//! left, the rest sorted once, so that a node that stops early (or skips the quiets) sorts
//! nothing; last the captures that lose material, in the order they were met.
//! The quiescence picker serves captures (every move when in check) by victim and capture
//! history alone, losing captures in their place.

use super::history::{History, capture_key, no_piece_square, piece_square, threat_slot};
use crate::game::{Game, MAX_MOVES, Move, MoveList};

/// The order of tactical move `m`: `victim_weight · mvv_lva + capture history`, so that the
/// victim counts most, but a capture that keeps failing can fall behind one of a slightly
/// smaller victim (`capture_victim_weight` of the search's parameters).
#[inline]
fn capture_score<G: Game>(board: &G, history: &History, victim_weight: i32, m: Move) -> i32 {
    victim_weight * board.mvv_lva(m) + history.capture(capture_key(board, m))
}

/// How many losing captures a main-search picker defers to the end; any beyond are served in
/// their place.
const MAX_BAD_CAPTURES: usize = 32;

/// Where the picker is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Stage {
    /// The hash move, before anything is generated.
    Hash,
    /// Generate every move; split captures from quiet moves.
    Generate,
    /// The captures, best first by victim and attacker.
    Captures,
    /// The first killer.
    Killer1,
    /// The second killer.
    Killer2,
    /// Score the quiet moves.
    ScoreQuiets,
    /// The quiet moves, best first: the first few picked one by one, the rest sorted.
    Quiets,
    /// The captures that lose material by SEE, deferred from the capture stage.
    BadCaptures,
    /// Nothing left.
    Done,
}

/// Room for the moves of one node and their scores. Each thread keeps one per ply in its
/// [`ThreadData`](super::ThreadData), so that a node neither copies nor clears 1.5 KB to
/// start (callgrind on `bench`: a picker owning its list was copied at 7% of all
/// instructions; clearing fresh lists cost another 1%).
pub struct Moves {
    list: MoveList,
    scores: [i32; MAX_MOVES],
}

impl Default for Moves {
    fn default() -> Moves {
        Moves { list: MoveList::new(), scores: [0; MAX_MOVES] }
    }
}

/// Serves the moves of one node from that node's room.
pub struct Picker {
    stage: Stage,
    /// The next move to serve from the room.
    next: usize,
    /// The room's captures are `..captures`, its quiet moves `captures..`.
    captures: usize,
    tt_move: Move,
    killers: [Move; 2],
    /// The piece-squares of the moves one and two plies back, for continuation history.
    earlier: [usize; 2],
    /// The squares the opponent attacks, for the butterfly history's threat slots.
    threats: u128,
    /// Nothing was served and nothing is left: the position has no move of the kind served.
    empty: bool,
    /// Whether captures that lose material wait until after the quiet moves (main search).
    defer_bad: bool,
    /// The weight of a capture's victim against its capture history.
    victim_weight: i32,
    /// The quiet moves left are to be skipped (late move pruning).
    skip_quiets: bool,
    /// The deferred losing captures, `bad[next_bad..bad_len]` still to serve.
    bad: [Move; MAX_BAD_CAPTURES],
    bad_len: usize,
    next_bad: usize,
}

impl Picker {
    /// The picker of a main-search node: every legal move, `tt_move` (legal or none) first.
    #[inline]
    pub fn main<G: Game>(
        room: &mut Moves,
        board: &G,
        history: &History,
        tt_move: Move,
        killers: [Move; 2],
        earlier: [usize; 2],
        victim_weight: i32,
    ) -> Picker {
        // Found for every node, not when a quiet move first needs them: most nodes do, and
        // the check for whether they were found cost more than it saved (callgrind, three
        // chess searches: 0.9% more instructions).
        let mut picker = Picker {
            threats: if G::THREAT_HISTORY { board.threats() } else { 0 },
            ..Picker::new(Stage::Hash, tt_move, killers, earlier, true, victim_weight)
        };
        if tt_move.is_none() {
            // Without a hash move, generating now also tells whether there is any move.
            picker.generate(room, board, history);
            picker.empty = room.list.is_empty();
        }
        picker
    }

    /// The picker of a quiescence node: captures, or every move when `in_check`, by victim and
    /// attacker.
    /// Every move it serves is in the capture stage, so the later stages find nothing.
    #[inline]
    pub fn quiescence<G: Game>(
        room: &mut Moves,
        board: &G,
        history: &History,
        in_check: bool,
        victim_weight: i32,
    ) -> Picker {
        room.list.clear();
        if in_check {
            board.legal_moves(&mut room.list);
        } else {
            board.legal_captures(&mut room.list);
        }
        for (i, &m) in room.list.iter().enumerate() {
            room.scores[i] = if board.is_tactical(m) {
                capture_score(board, history, victim_weight, m)
            } else {
                i32::MIN
            };
        }
        let none = [Move::NONE; 2];
        Picker {
            captures: room.list.len(),
            empty: room.list.is_empty(),
            ..Picker::new(
                Stage::Captures,
                Move::NONE,
                none,
                [no_piece_square::<G>(); 2],
                false,
                victim_weight,
            )
        }
    }

    /// A picker at `stage` that has served nothing and found nothing yet.
    #[inline]
    fn new(
        stage: Stage,
        tt_move: Move,
        killers: [Move; 2],
        earlier: [usize; 2],
        defer_bad: bool,
        victim_weight: i32,
    ) -> Picker {
        Picker {
            stage,
            next: 0,
            captures: 0,
            tt_move,
            killers,
            earlier,
            threats: 0,
            empty: false,
            defer_bad,
            victim_weight,
            skip_quiets: false,
            bad: [Move::NONE; MAX_BAD_CAPTURES],
            bad_len: 0,
            next_bad: 0,
        }
    }

    /// Generates every move, captures first (scored) and quiet moves after them.
    fn generate<G: Game>(&mut self, room: &mut Moves, board: &G, history: &History) {
        room.list.clear();
        board.legal_moves(&mut room.list);
        let moves = room.list.as_mut_slice();
        let mut captures = 0;
        for i in 0..moves.len() {
            if board.is_tactical(moves[i]) {
                moves.swap(captures, i);
                room.scores[captures] =
                    capture_score(board, history, self.victim_weight, moves[captures]);
                captures += 1;
            }
        }
        self.captures = captures;
        self.next = 0;
        self.stage = Stage::Captures;
    }

    /// Skips the quiet moves not yet served (late move pruning); the losing captures are still
    /// served.
    pub fn skip_quiets(&mut self) {
        self.skip_quiets = true;
    }

    /// The squares the opponent attacks ([`Game::threats`]), which key the butterfly history
    /// of this node's quiet moves.
    #[inline]
    pub fn threats(&self) -> u128 {
        self.threats
    }

    /// True when the position has no move of the kind served (asked before any move is taken).
    pub fn is_empty(&self) -> bool {
        self.empty
    }

    /// The next move from `room` (the room the picker was made with), or `None` when all have
    /// been served.
    #[inline]
    pub fn next_move<G: Game>(
        &mut self,
        room: &mut Moves,
        board: &G,
        history: &History,
    ) -> Option<Move> {
        loop {
            match self.stage {
                Stage::Hash => {
                    self.stage = Stage::Generate;
                    return Some(self.tt_move);
                }
                Stage::Generate => self.generate(room, board, history),
                Stage::Captures => {
                    let i = self.next;
                    if i >= self.captures {
                        self.stage = Stage::Killer1;
                        continue;
                    }
                    // Selection: the best remaining capture to the front.
                    let moves = room.list.as_mut_slice();
                    let (mut best, mut top) = (i, room.scores[i]);
                    for (j, &s) in room.scores[..self.captures].iter().enumerate().skip(i + 1) {
                        if s > top {
                            (best, top) = (j, s);
                        }
                    }
                    moves.swap(i, best);
                    room.scores.swap(i, best);
                    self.next += 1;
                    let m = moves[i];
                    if m == self.tt_move {
                        continue;
                    }
                    if self.defer_bad && self.bad_len < MAX_BAD_CAPTURES && !board.see_ge(m, 0) {
                        self.bad[self.bad_len] = m;
                        self.bad_len += 1;
                        continue;
                    }
                    return Some(m);
                }
                Stage::Killer1 | Stage::Killer2 if self.skip_quiets => {
                    self.stage = Stage::BadCaptures;
                }
                Stage::Killer1 | Stage::Killer2 => {
                    let k = if self.stage == Stage::Killer1 { 0 } else { 1 };
                    self.stage = if k == 0 { Stage::Killer2 } else { Stage::ScoreQuiets };
                    let m = self.killers[k];
                    if !m.is_none()
                        && m != self.tt_move
                        && room.list.as_slice()[self.captures..].contains(&m)
                    {
                        return Some(m);
                    }
                }
                Stage::ScoreQuiets => {
                    let side = board.side_to_move().index();
                    let (start, end) = (self.captures, room.list.len());
                    let moves = &mut room.list.as_mut_slice()[start..end];
                    let scores = &mut room.scores[start..end];
                    for (s, &m) in scores.iter_mut().zip(moves.iter()) {
                        let slot = threat_slot::<G>(self.threats, m);
                        *s = history.quiet_order::<G>(
                            side,
                            slot,
                            m,
                            piece_square(board, m),
                            self.earlier,
                        );
                    }
                    self.next = start;
                    self.stage = Stage::Quiets;
                }
                Stage::Quiets => {
                    let (next, end) = (self.next, room.list.len());
                    if next >= end || self.skip_quiets {
                        self.stage = Stage::BadCaptures;
                        continue;
                    }
                    let moves = &mut room.list.as_mut_slice()[next..end];
                    let scores = &mut room.scores[next..end];
                    let served = next - self.captures;
                    if served < SELECTED_QUIETS {
                        // Most nodes take only a few quiet moves (a cut-off, late move
                        // pruning): find the best of the rest for each, keeping the others in
                        // their order, rather than sorting them all.
                        best_to_front(moves, scores);
                    } else if served == SELECTED_QUIETS {
                        sort_best_first(moves, scores);
                    }
                    let m = moves[0];
                    self.next += 1;
                    if m != self.tt_move && m != self.killers[0] && m != self.killers[1] {
                        return Some(m);
                    }
                }
                Stage::BadCaptures => {
                    if self.next_bad >= self.bad_len {
                        self.stage = Stage::Done;
                        continue;
                    }
                    self.next_bad += 1;
                    return Some(self.bad[self.next_bad - 1]);
                }
                Stage::Done => return None,
            }
        }
    }
}

/// The quiet moves served one by one, each the best of those left, before the rest are sorted.
const SELECTED_QUIETS: usize = 6;

/// Moves the best-scored of `moves` (the first of equals) to the front, keeping the others in
/// their order, so that serving moves this way and sorting the rest at any point gives the
/// order of one stable sort.
fn best_to_front(moves: &mut [Move], scores: &mut [i32]) {
    // The best score so far is kept beside its index rather than read back through it each
    // step (that read cost a third of the picker's instructions in a chess search, callgrind).
    let (mut best, mut top) = (0, i32::MIN);
    for (j, &s) in scores.iter().enumerate() {
        if s > top {
            (best, top) = (j, s);
        }
    }
    moves[..=best].rotate_right(1);
    scores[..=best].rotate_right(1);
}

/// Sorts `moves` by `scores`, best first, keeping the generation order among equal scores (as a
/// stable sort would). Each (score, index) pair is packed into one integer key whose order is
/// the wanted one, so that one unstable sort of plain integers does it: an insertion sort of
/// the moves themselves cost about half of the picker's time in a middlegame search (perf).
fn sort_best_first(moves: &mut [Move], scores: &mut [i32]) {
    debug_assert!(moves.len() == scores.len() && moves.len() <= MAX_MOVES);
    let n = moves.len();
    let mut keys = [0u64; MAX_MOVES];
    for (i, (&s, key)) in scores.iter().zip(keys.iter_mut()).enumerate() {
        // Higher scores first: invert the score's order-preserving unsigned form.
        let rank = !((s as u32) ^ 0x8000_0000);
        *key = (u64::from(rank) << 32) | i as u64;
    }
    keys[..n].sort_unstable();
    let original: [Move; MAX_MOVES] = {
        let mut copy = [Move::NONE; MAX_MOVES];
        copy[..n].copy_from_slice(moves);
        copy
    };
    for (k, &key) in keys[..n].iter().enumerate() {
        let i = (key & 0xffff_ffff) as usize;
        moves[k] = original[i];
        scores[k] = !((key >> 32) as u32) as i32 ^ i32::MIN;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Chess;

    /// `n` moves numbered in generation order, with scores of many ties and both extremes
    /// from a small linear congruential generator.
    fn scored(n: usize, x: &mut u32) -> (Vec<Move>, Vec<i32>) {
        let scores = (0..n)
            .map(|_| {
                *x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                match *x % 5 {
                    0 => i32::MIN,
                    1 => i32::MAX,
                    _ => (*x >> 8) as i32 % 300 - 150,
                }
            })
            .collect();
        ((0..n as u16).map(Move::from_raw).collect(), scores)
    }

    /// The order of a stable sort, best first.
    fn stable(moves: &[Move], scores: &[i32]) -> Vec<(Move, i32)> {
        let mut v: Vec<(Move, i32)> = moves.iter().copied().zip(scores.iter().copied()).collect();
        v.sort_by_key(|b| std::cmp::Reverse(b.1));
        v
    }

    /// White's queen can take a loose knight (h5, good) or a pawn its neighbour defends (d5,
    /// losing the queen for a pawn); every other move is quiet.
    const ONE_GOOD_ONE_BAD: &str = "4k3/8/2p5/3p3n/8/8/8/3QK3 w - - 0 1";

    use crate::search::history::threat_slot;

    fn setup() -> (Chess, History, Moves, Move, Move) {
        let board = Chess::from_fen(ONE_GOOD_ONE_BAD).expect("test FEN");
        let good = board.parse_move("d1h5").expect("Qxh5");
        let bad = board.parse_move("d1d5").expect("Qxd5");
        let mut history = History::default();
        history.fit::<Chess>();
        (board, history, Moves::default(), good, bad)
    }

    fn main_picker(board: &Chess, history: &History, room: &mut Moves) -> Picker {
        let weight = crate::search::params::Params::CHESS.capture_victim_weight;
        Picker::main(
            room,
            board,
            history,
            Move::NONE,
            [Move::NONE; 2],
            [no_piece_square::<Chess>(); 2],
            weight,
        )
    }

    /// The first quiet move served, after the one good capture.
    fn first_quiet(board: &Chess, history: &History) -> Option<Move> {
        let mut room = Moves::default();
        let mut picker = main_picker(board, history, &mut room);
        std::iter::from_fn(|| picker.next_move(&mut room, board, history))
            .find(|&m| !board.is_tactical(m))
    }

    #[test]
    fn quiet_moves_are_ordered_by_the_history_of_their_threat_slot() {
        let (board, mut history, ..) = setup();
        // Black attacks b5, c4, d5, e4, f4, f6, g3, g7 and its king's squares: the queen's
        // d1g4 neither leaves nor enters an attacked square.
        let threats = board.threats();
        let into = board.parse_move("d1g4").expect("Qg4");
        let (slot, side) = (threat_slot::<Chess>(threats, into), 0);
        assert_eq!(slot, 0);
        let other = 3;
        // A score in another slot does not count for the move here...
        history.update_quiet(side, other, into, 8000, true);
        assert_ne!(first_quiet(&board, &history), Some(into));
        // ...its own slot's does.
        history.update_quiet(side, slot, into, 8000, true);
        assert_eq!(first_quiet(&board, &history), Some(into));
    }

    #[test]
    fn losing_captures_come_after_the_quiet_moves() {
        let (board, history, mut room, good, bad) = setup();
        let mut picker = main_picker(&board, &history, &mut room);
        let mut served = Vec::new();
        while let Some(m) = picker.next_move(&mut room, &board, &history) {
            served.push(m);
        }
        let mut legal = MoveList::new();
        board.legal_moves(&mut legal);
        let mut expected: Vec<Move> = legal.iter().copied().collect();
        let mut got = served.clone();
        expected.sort_by_key(|m| m.raw());
        got.sort_by_key(|m| m.raw());
        assert_eq!(got, expected, "each legal move served once");
        assert_eq!(served.first(), Some(&good));
        assert_eq!(served.last(), Some(&bad));
    }

    #[test]
    fn skipping_the_quiet_moves_still_serves_the_losing_captures() {
        let (board, history, mut room, good, bad) = setup();
        let mut picker = main_picker(&board, &history, &mut room);
        assert_eq!(picker.next_move(&mut room, &board, &history), Some(good));
        let quiet = picker.next_move(&mut room, &board, &history);
        assert!(quiet.is_some_and(|m| !board.is_tactical(m)), "{quiet:?}");
        picker.skip_quiets();
        assert_eq!(picker.next_move(&mut room, &board, &history), Some(bad));
        assert_eq!(picker.next_move(&mut room, &board, &history), None);
    }

    #[test]
    fn sorting_is_best_first_and_stable() {
        let mut x = 12_345;
        for n in [0, 1, 2, 5, 17, 40, 97, MAX_MOVES] {
            let (mut moves, mut scores) = scored(n, &mut x);
            let expected = stable(&moves, &scores);
            sort_best_first(&mut moves, &mut scores);
            let got: Vec<(Move, i32)> = moves.into_iter().zip(scores).collect();
            assert_eq!(got, expected, "{n} moves");
        }
    }

    #[test]
    fn picking_the_first_moves_then_sorting_the_rest_is_one_stable_sort() {
        let mut x = 54_321;
        for n in [1, 2, 6, 7, 30, 60] {
            for picked in 0..=n.min(SELECTED_QUIETS + 2) {
                let (mut moves, mut scores) = scored(n, &mut x);
                let expected = stable(&moves, &scores);
                for k in 0..picked {
                    best_to_front(&mut moves[k..], &mut scores[k..]);
                }
                sort_best_first(&mut moves[picked..], &mut scores[picked..]);
                let got: Vec<(Move, i32)> = moves.into_iter().zip(scores).collect();
                assert_eq!(got, expected, "{n} moves, {picked} picked");
            }
        }
    }
}
