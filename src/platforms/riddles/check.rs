//! Checking a bot's answers to the engine's side of a recorded game: each
//! `action move` of the transcript is rebuilt as the position the bot was
//! given ([`BotView`]), and the bot's answer to it must be a move line
//! that is legal there. A `pass` (always legal in GOLAD) counts apart: a
//! bot that answers everything with `pass` is broken on a ladder, so a
//! check fails on one unless told that the agent may choose it; and the
//! passes that the bot's own log marks as forced (the fallback when no
//! searched move could be used, [`bot::FORCED_PASS`](super::bot::FORCED_PASS))
//! fail it always. Pure: the caller reads the files.

use serde::Serialize;

use crate::games::golad::{Field, GolState, Move};
use crate::platforms::riddles::bot::FORCED_PASS;
use crate::platforms::riddles::codec::{self as riddles, BotView};

/// What the answers to one transcript were.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct AnswerCheck {
    /// `action move` lines in the transcript.
    pub requests: usize,
    /// Answer lines given.
    pub answers: usize,
    /// Answers that are legal moves other than `pass` in their position.
    pub moves: usize,
    /// Answers `pass`.
    pub passes: usize,
    /// Forced passes the bot's log reports (`None`: no log was given).
    pub forced: Option<usize>,
    /// Each problem found, one line each (empty: the answers are good).
    pub problems: Vec<String>,
}

impl AnswerCheck {
    /// No problem found.
    pub fn ok(&self) -> bool {
        self.problems.is_empty()
    }

    /// One line for people.
    pub fn summary(&self) -> String {
        let forced = self
            .forced
            .map_or("no bot log".to_string(), |n| format!("{n} forced"));
        format!(
            "{} requests, {} answers: {} legal moves, {} passes ({forced}); {}",
            self.requests,
            self.answers,
            self.moves,
            self.passes,
            if self.ok() {
                "ok".to_string()
            } else {
                format!("{} problem(s)", self.problems.len())
            }
        )
    }
}

/// The engine's lines of a transcript: the `< ` lines of a recorded
/// transcript (`protocol/riddles-golad/transcripts/*.txt`), or every line
/// when none starts so (the engine's lines alone, as piped to a bot).
pub fn engine_lines(transcript: &str) -> Vec<String> {
    let marked: Vec<String> = transcript
        .lines()
        .filter_map(|l| l.strip_prefix("< "))
        .map(str::to_string)
        .collect();
    if marked.is_empty() {
        transcript.lines().map(str::to_string).collect()
    } else {
        marked
    }
}

/// Lines of a bot's stderr that report a forced pass.
pub fn forced_passes_in_log(log: &str) -> usize {
    log.lines().filter(|l| l.contains(FORCED_PASS)).count()
}

/// Checks `answers` (the bot's stdout lines, in order) against the requests
/// of `engine` (the engine's lines). `log` is the bot's stderr, if kept;
/// `allow_pass` accepts a `pass` that the log does not mark as forced.
pub fn check_answers(
    engine: &[String],
    answers: &[String],
    log: Option<&str>,
    allow_pass: bool,
) -> AnswerCheck {
    let mut c = AnswerCheck {
        answers: answers.len(),
        forced: log.map(forced_passes_in_log),
        ..Default::default()
    };
    let mut view = BotView::new();
    let mut replies = answers.iter();
    for (i, line) in engine.iter().enumerate() {
        let request = match riddles::parse_line(line) {
            Ok(ev) => match view.apply(ev) {
                Some(r) => r,
                None => continue,
            },
            Err(_) if riddles::is_move_request(line) => Err("an unreadable request".into()),
            Err(_) => continue,
        };
        c.requests += 1;
        let n = c.requests;
        let Some(answer) = replies.next() else {
            c.problems
                .push(format!("request {n} (line {}): no answer", i + 1));
            continue;
        };
        let mv = match Move::parse_reply(answer) {
            Ok(m) => m,
            Err(e) => {
                c.problems.push(format!(
                    "request {n} (line {}): {answer:?} is not a move line: {e}",
                    i + 1
                ));
                continue;
            }
        };
        if mv == Move::Pass {
            c.passes += 1;
            if !allow_pass {
                c.problems.push(format!(
                    "request {n} (line {}): answered `pass` (a searched move was expected)",
                    i + 1
                ));
            }
            continue;
        }
        let state = request.and_then(|req| {
            let field = Field::from_riddles(&req.field)?;
            Ok(GolState::from_protocol(
                field,
                req.round,
                req.me,
                req.max_rounds,
            ))
        });
        match state {
            Ok(s) if s.is_legal(&mv) => c.moves += 1,
            Ok(_) => c.problems.push(format!(
                "request {n} (line {}): {answer:?} is illegal in its position",
                i + 1
            )),
            Err(e) => c.problems.push(format!(
                "request {n} (line {}): a move {answer:?} to a request with no position ({e})",
                i + 1
            )),
        }
    }
    let extra = replies.count();
    if extra > 0 {
        c.problems
            .push(format!("{extra} answer(s) more than the requests"));
    }
    if let Some(f) = c.forced.filter(|&f| f > 0) {
        c.problems.push(format!(
            "the bot's log reports {f} forced pass(es) (`{FORCED_PASS}`: no searched move could be used)"
        ));
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::golad::Cell;

    const TRANSCRIPT: &str =
        include_str!("../../../protocol/riddles-golad/transcripts/golad_seed_abc_player0.txt");

    /// The moves the recorded bot gave (`> ` lines).
    fn recorded_answers() -> Vec<String> {
        TRANSCRIPT
            .lines()
            .filter_map(|l| l.strip_prefix("> "))
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn the_recorded_answers_pass_and_each_kind_of_bad_answer_fails() {
        let engine = engine_lines(TRANSCRIPT);
        let good = recorded_answers();
        // The recorded bot passed once (request 5): good with passes allowed.
        let c = check_answers(&engine, &good, Some(""), true);
        assert!(c.ok(), "{c:?}");
        assert_eq!((c.requests, c.moves, c.passes), (11, 10, 1));
        assert_eq!(c.forced, Some(0));
        let c = check_answers(&engine, &good, Some(""), false);
        assert_eq!(c.problems.len(), 1, "{c:?}");
        assert!(c.problems[0].starts_with("request 5 "), "{c:?}");

        // Every answer `pass`: fails, unless passes are allowed.
        let passes = vec!["pass".to_string(); good.len()];
        let c = check_answers(&engine, &passes, None, false);
        assert_eq!(c.problems.len(), 11);
        assert!(check_answers(&engine, &passes, None, true).ok());
        // ...but never a forced one.
        let log = format!("WARN {FORCED_PASS}: the search overran; answering pass\n");
        let c = check_answers(&engine, &passes, Some(&log), true);
        assert_eq!(c.forced, Some(1));
        assert!(!c.ok());

        // A missing answer, an extra one, garbage, and an illegal kill.
        let c = check_answers(&engine, &good[..10], None, true);
        assert_eq!(c.problems.len(), 1, "{c:?}");
        assert!(c.problems[0].contains("no answer"), "{c:?}");
        let mut more = good.clone();
        more.push("pass".into());
        assert!(!check_answers(&engine, &more, None, true).ok());
        let mut bad = good.clone();
        bad[3] = "hello".into();
        assert!(!check_answers(&engine, &bad, None, true).ok());
        let mut bad = good;
        // An empty cell far from every living cell of the first field.
        let state = {
            let mut view = BotView::new();
            let mut req = None;
            for l in &engine {
                if let Ok(ev) = riddles::parse_line(l) {
                    if let Some(Ok(r)) = view.apply(ev) {
                        req = Some(r);
                        break;
                    }
                }
            }
            let r = req.unwrap();
            GolState::from_protocol(
                Field::from_riddles(&r.field).unwrap(),
                r.round,
                r.me,
                r.max_rounds,
            )
        };
        let illegal = (0..18u8)
            .flat_map(|x| (0..16u8).map(move |y| Move::Kill(Cell { x, y })))
            .find(|m| !state.is_legal(m))
            .unwrap();
        bad[0] = illegal.to_string();
        let c = check_answers(&engine, &bad, None, true);
        assert_eq!(c.problems.len(), 1, "{c:?}");
        assert!(c.problems[0].contains("illegal"), "{c:?}");
    }

    #[test]
    fn engine_lines_take_the_marked_lines_or_all() {
        assert_eq!(engine_lines("< a\n> b\n< c\n"), vec!["a", "c"]);
        assert_eq!(engine_lines("a\nc\n"), vec!["a", "c"]);
    }
}
