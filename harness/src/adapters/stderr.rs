//! What an adapter process writes to its stderr, kept for the cases it belongs to (issue 27 §4;
//! `harness/driver/README.md`, "Stderr" and "Case marks"): the end of it, bounded, and how much was
//! written. An adapter that declares `caseMarks` writes a mark (`driver::case_mark`) when it reads
//! each `start`; the stream is then cut at the marks, so that each case gets exactly what was
//! written between its own mark and the next one, however far ahead of the harness the adapter
//! runs. Without marks, text is attributed by when it arrives (`adapters/process.rs`).

use std::collections::VecDeque;

use crate::driver;

/// How much of the adapter's stderr is kept between two `take_stderr` calls (the end of it): more
/// than a report shows (`quote::tail`), so the lines before a cut are whole.
const STDERR_TAIL_BYTES: usize = 64 * 1024;

/// The end of what the adapter wrote to its stderr since it was last taken, and how much it wrote.
#[derive(Default)]
pub(super) struct Captured {
    pub(super) end: VecDeque<u8>,
    pub(super) total: u64,
}

impl Captured {
    pub(super) fn push(&mut self, bytes: &[u8]) {
        self.total += bytes.len() as u64;
        let bytes = &bytes[bytes.len().saturating_sub(STDERR_TAIL_BYTES)..];
        self.end.extend(bytes);
        let over = self.end.len().saturating_sub(STDERR_TAIL_BYTES);
        self.end.drain(..over);
    }

    pub(super) fn append(&mut self, mut later: Captured) {
        let total = self.total + later.total;
        self.push(later.end.make_contiguous());
        self.total = total;
    }

    /// Adds the harness's own line: shown, not counted as bytes the adapter wrote.
    pub(super) fn push_own_line(&mut self, line: &[u8]) {
        let total = self.total;
        self.push(line);
        self.total = total;
    }

    pub(super) fn is_empty(&self) -> bool {
        self.total == 0
    }

    pub(super) fn text(&mut self) -> String {
        String::from_utf8_lossy(self.end.make_contiguous()).trim().to_string()
    }
}

/// One adapter process's stderr as it arrives, not yet handed to a case.
#[derive(Default)]
pub(super) struct Stream {
    /// Cut at case marks (the adapter declared `caseMarks`).
    marks: bool,
    /// The text in order, each part with whether it begins at a case mark; never empty.
    segments: VecDeque<(bool, Captured)>,
    /// Bytes that may be a case mark still being read: from a record separator up to a newline.
    pending: Vec<u8>,
}

impl Stream {
    /// From now on, the text is cut at case marks (after a handshake that declared them: what
    /// came before belongs before the first case).
    pub(super) fn cut_at_marks(&mut self) {
        self.marks = true;
    }

    fn current(&mut self) -> &mut Captured {
        if self.segments.is_empty() {
            self.segments.push_back((false, Captured::default()));
        }
        &mut self.segments.back_mut().expect("just made non-empty").1
    }

    pub(super) fn push(&mut self, mut bytes: &[u8]) {
        if !self.marks {
            self.current().push(bytes);
            return;
        }
        while !bytes.is_empty() {
            if self.pending.is_empty() {
                match memchr::memchr(driver::CASE_MARK_PREFIX[0], bytes) {
                    None => {
                        self.current().push(bytes);
                        return;
                    }
                    Some(at) => {
                        self.current().push(&bytes[..at]);
                        bytes = &bytes[at..];
                    }
                }
            }
            // Inside a possible mark: read it to its newline, or until it cannot be one.
            let room = driver::CASE_MARK_MAX_BYTES.saturating_sub(self.pending.len());
            let (taken, complete) = match memchr::memchr(b'\n', &bytes[..bytes.len().min(room)]) {
                Some(at) => (at + 1, true),
                None => (bytes.len().min(room), false),
            };
            self.pending.extend_from_slice(&bytes[..taken]);
            bytes = &bytes[taken..];
            let prefix_ok = self.pending.starts_with(driver::CASE_MARK_PREFIX)
                || driver::CASE_MARK_PREFIX.starts_with(&self.pending);
            if complete && self.pending.starts_with(driver::CASE_MARK_PREFIX) {
                self.pending.clear();
                self.segments.push_back((true, Captured::default()));
            } else if complete || !prefix_ok || self.pending.len() >= driver::CASE_MARK_MAX_BYTES {
                // Not a mark: the implementation's own text.
                let text = std::mem::take(&mut self.pending);
                self.current().push(&text);
            }
        }
    }

    /// Whether the text of the case taken next is complete without reading further: the mark of
    /// a later case has already arrived (with marks; the adapter writes them in batches).
    pub(super) fn next_case_closed(&self) -> bool {
        self.marks && self.segments.iter().filter(|(at_mark, _)| *at_mark).nth(1).is_some()
    }

    /// Everything not yet taken, marks or not (an adapter without marks; a failed handshake).
    pub(super) fn take_all(&mut self) -> Captured {
        let mut all = Captured::default();
        for (_, part) in self.segments.drain(..) {
            all.append(part);
        }
        let pending = std::mem::take(&mut self.pending);
        all.push(&pending);
        all
    }

    /// What belongs to the case whose stderr is taken now (with marks): the text written before
    /// its mark (before it started), and its own, from its mark to the next one. Without a mark
    /// (an adapter that declared marks and wrote none), everything is its own.
    pub(super) fn take_case(&mut self) -> (Captured, Captured) {
        if !self.marks {
            return (Captured::default(), self.take_all());
        }
        let before = match self.segments.front() {
            Some((false, _)) => self.segments.pop_front().map(|(_, text)| text).unwrap_or_default(),
            _ => Captured::default(),
        };
        match self.segments.pop_front() {
            Some((_, own)) => (before, own),
            None => (Captured::default(), before),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(mut captured: Captured) -> String {
        captured.text()
    }

    #[test]
    fn marks_cut_the_stream_into_cases_wherever_the_reads_end() {
        let whole = format!(
            "boot\n{}one\n{}two a\ntwo b\n{}",
            driver::case_mark("c1"),
            driver::case_mark("c2"),
            driver::case_mark("c3")
        );
        // The same stream read in pieces of every size gives the same cut.
        for piece in 1..whole.len() + 1 {
            let mut stream = Stream::default();
            stream.cut_at_marks();
            for chunk in whole.as_bytes().chunks(piece) {
                stream.push(chunk);
            }
            let (before, own) = stream.take_case();
            assert_eq!((text(before), text(own)), ("boot".to_string(), "one".to_string()), "pieces of {piece}");
            let (before, own) = stream.take_case();
            assert_eq!((text(before), text(own)), (String::new(), "two a\ntwo b".to_string()), "pieces of {piece}");
            let (before, own) = stream.take_case();
            assert!(before.is_empty() && own.is_empty(), "the third case has its mark and nothing else yet");
        }
    }

    #[test]
    fn text_that_only_looks_like_a_mark_is_kept() {
        let mut stream = Stream::default();
        stream.cut_at_marks();
        stream.push(b"\x1eother\n\x1ercip-rui-driver star\n");
        stream.push(&driver::case_mark("c1").into_bytes());
        stream.push(b"mine\n");
        let (before, own) = stream.take_case();
        assert_eq!(text(before), "\u{1e}other\n\u{1e}rcip-rui-driver star");
        assert_eq!(text(own), "mine");
    }

    #[test]
    fn a_partial_line_before_a_mark_stays_before_it() {
        let mut stream = Stream::default();
        stream.cut_at_marks();
        stream.push(format!("no newline{}case text\n", driver::case_mark("c1")).as_bytes());
        let (before, own) = stream.take_case();
        assert_eq!((text(before), text(own)), ("no newline".to_string(), "case text".to_string()));
    }

    #[test]
    fn without_marks_everything_is_the_case_s_own_and_marks_are_text() {
        let mut stream = Stream::default();
        stream.push(format!("a\n{}b\n", driver::case_mark("c1")).as_bytes());
        let (before, own) = stream.take_case();
        assert!(before.is_empty());
        assert_eq!(own.total as usize, format!("a\n{}b\n", driver::case_mark("c1")).len());
    }

    #[test]
    fn a_long_line_after_a_record_separator_is_text() {
        let mut stream = Stream::default();
        stream.cut_at_marks();
        let long = format!("{}{}\n", String::from_utf8_lossy(driver::CASE_MARK_PREFIX), "x".repeat(2 * driver::CASE_MARK_MAX_BYTES));
        stream.push(long.as_bytes());
        let (before, own) = stream.take_case();
        assert_eq!(before.total + own.total, long.len() as u64, "nothing lost, nothing taken for a mark");
    }

    #[test]
    fn a_case_is_closed_only_once_a_later_mark_has_arrived() {
        let mut stream = Stream::default();
        stream.cut_at_marks();
        stream.push(format!("boot\n{}one\n", driver::case_mark("c1")).as_bytes());
        assert!(!stream.next_case_closed(), "c1 may still write: its text is not known to be whole");
        // Half a mark is not a mark yet.
        stream.push(&driver::case_mark("c2").as_bytes()[..4]);
        assert!(!stream.next_case_closed());
        stream.push(&driver::case_mark("c2").as_bytes()[4..]);
        assert!(stream.next_case_closed(), "c2's mark ends c1's text");
        let (before, own) = stream.take_case();
        assert_eq!((text(before), text(own)), ("boot".to_string(), "one".to_string()));
        assert!(!stream.next_case_closed(), "c2 is the last case begun");
        let mut unmarked = Stream::default();
        unmarked.push(format!("{}{}", driver::case_mark("c1"), driver::case_mark("c2")).as_bytes());
        assert!(!unmarked.next_case_closed(), "without marks, text is never cut");
    }
}
