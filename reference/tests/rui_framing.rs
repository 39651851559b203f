//! Framing of Rixx UI records (CL-D07-1..5, RUI-FRAME-01..06, PRJ-RUI-FRAME-01..11): what each
//! decoder yields for well-formed, blank, truncated and malformed input, and the property that any
//! chunking of a byte stream yields the same frames (CL-D07-5: a partial frame is never surfaced).

use proptest::prelude::*;
use reference::rui::codes::QuarantineCode;
use reference::rui::framing::{parse_frame, record_text_len, DecodedFrame, Decoder, Framing};

const RS: u8 = 0x1E;

/// Every frame of `stream` fed in one chunk, then the end of the stream.
fn decode(framing: Framing, stream: &[u8]) -> Vec<DecodedFrame> {
    decode_chunks(framing, &[stream])
}

fn decode_chunks(framing: Framing, chunks: &[&[u8]]) -> Vec<DecodedFrame> {
    let mut decoder = Decoder::new(framing);
    let mut out = Vec::new();
    for chunk in chunks {
        decoder
            .push(chunk, &mut out)
            .expect("a stream framing takes bytes");
    }
    decoder.finish(&mut out);
    out
}

fn complete(bytes: &[u8]) -> DecodedFrame {
    DecodedFrame::Complete(bytes.to_vec())
}

const TRUNCATED: DecodedFrame = DecodedFrame::Quarantined(QuarantineCode::FrameTruncated);
const NOT_JSON: DecodedFrame = DecodedFrame::Quarantined(QuarantineCode::FrameNotJson);

// --- JSONL (CL-D07-1, PRJ-RUI-FRAME-03/04/05) ---

#[test]
fn jsonl_one_frame_per_lf_terminated_line() {
    let frames = decode(
        Framing::Jsonl,
        b"[\"begin\",0,\"t\",0]\n[\"abort\",1,\"E\",\"m\"]\n",
    );
    assert_eq!(
        frames,
        vec![
            complete(b"[\"begin\",0,\"t\",0]"),
            complete(b"[\"abort\",1,\"E\",\"m\"]")
        ]
    );
}

#[test]
fn jsonl_crlf_keeps_the_cr_which_json_ignores() {
    let frames = decode(Framing::Jsonl, b"[1]\r\n");
    assert_eq!(frames, vec![complete(b"[1]\r")]);
    assert_eq!(parse_frame(b"[1]\r"), Ok(serde_json::json!([1])));
}

#[test]
fn jsonl_blank_and_whitespace_lines_are_not_frames() {
    let frames = decode(Framing::Jsonl, b"\n \t\r\n[1]\n\n");
    assert_eq!(frames, vec![complete(b"[1]")]);
}

#[test]
fn jsonl_unterminated_last_line_is_truncated_even_if_it_parses() {
    assert_eq!(
        decode(Framing::Jsonl, b"[1]\n[2]"),
        vec![complete(b"[1]"), TRUNCATED]
    );
    // Only whitespace after the last LF: nothing was cut.
    assert_eq!(decode(Framing::Jsonl, b"[1]\n  "), vec![complete(b"[1]")]);
}

#[test]
fn jsonl_decoder_resets_after_the_end_of_a_stream() {
    let mut decoder = Decoder::new(Framing::Jsonl);
    let mut out = Vec::new();
    decoder.push(b"[1", &mut out).unwrap();
    decoder.finish(&mut out);
    decoder.push(b"[2]\n", &mut out).unwrap();
    assert_eq!(out, vec![TRUNCATED, complete(b"[2]")]);
}

// --- SSE (CL-D07-2, PRJ-RUI-FRAME-06/07) ---

#[test]
fn sse_one_frame_per_data_event() {
    let frames = decode(Framing::Sse, b"data: [1]\n\ndata: [2]\n\n");
    assert_eq!(frames, vec![complete(b"[1]"), complete(b"[2]")]);
}

#[test]
fn sse_multi_line_data_is_joined_with_lf() {
    let frames = decode(Framing::Sse, b"data: [\"begin\",\ndata: 0]\n\n");
    assert_eq!(frames, vec![complete(b"[\"begin\",\n0]")]);
}

#[test]
fn sse_comments_and_other_fields_are_ignored() {
    let stream = b": keep-alive\nevent: record\nid: 7\nretry: 10\nfoo: bar\ndata: [1]\n\n";
    assert_eq!(decode(Framing::Sse, stream), vec![complete(b"[1]")]);
}

#[test]
fn sse_drops_exactly_one_space_after_the_colon() {
    assert_eq!(
        decode(Framing::Sse, b"data:[1]\n\n"),
        vec![complete(b"[1]")]
    );
    assert_eq!(
        decode(Framing::Sse, b"data:  [1]\n\n"),
        vec![complete(b" [1]")]
    );
}

#[test]
fn sse_lines_end_at_crlf_lf_or_cr() {
    assert_eq!(
        decode(Framing::Sse, b"data: [1]\r\n\r\ndata: [2]\r\rdata: [3]\n\n"),
        vec![complete(b"[1]"), complete(b"[2]"), complete(b"[3]")]
    );
}

#[test]
fn sse_crlf_split_across_chunks_is_one_line_end() {
    // Were the CR and LF two line ends, the LF would be an empty line dispatching "a" alone.
    let frames = decode_chunks(Framing::Sse, &[b"data: a\r", b"\ndata: b\r\n\r\n"]);
    assert_eq!(frames, vec![complete(b"a\nb")]);
}

#[test]
fn sse_event_without_data_is_not_a_frame_and_empty_data_is_one() {
    assert_eq!(decode(Framing::Sse, b"event: log\n\n: c\n\n"), vec![]);
    assert_eq!(decode(Framing::Sse, b"data:\n\n"), vec![complete(b"")]);
    assert_eq!(decode(Framing::Sse, b"data\n\n"), vec![complete(b"")]);
    assert_eq!(parse_frame(b""), Err(QuarantineCode::FrameNotJson));
}

#[test]
fn sse_event_not_dispatched_when_the_stream_ends_is_truncated() {
    assert_eq!(decode(Framing::Sse, b"data: [1]\n"), vec![TRUNCATED]);
    assert_eq!(decode(Framing::Sse, b"data: [1]"), vec![TRUNCATED]);
    assert_eq!(
        decode(Framing::Sse, b"data: [1]\n\n: trailing comment"),
        vec![complete(b"[1]")]
    );
    assert_eq!(decode(Framing::Sse, b"event: x\n"), vec![]);
}

#[test]
fn sse_leading_bom_is_dropped_even_split_across_chunks() {
    let frames = decode_chunks(Framing::Sse, &[b"\xEF", b"\xBB", b"\xBFdata: [1]\n\n"]);
    assert_eq!(frames, vec![complete(b"[1]")]);
    // A BOM later in the stream is part of a field name, which is then not `data`.
    assert_eq!(
        decode(Framing::Sse, b"data: [1]\n\n\xEF\xBB\xBFdata: [2]\n\n"),
        vec![complete(b"[1]")]
    );
    // A stream shorter than a BOM that merely starts like one is ordinary input.
    assert_eq!(decode(Framing::Sse, b"\xEF"), vec![]);
}

// --- WebSocket (CL-D07-3, PRJ-RUI-FRAME-10) ---

#[test]
fn websocket_each_message_is_one_frame_and_bytes_are_refused() {
    let mut decoder = Decoder::new(Framing::WebSocket);
    let mut out = Vec::new();
    decoder.message(b"[1]\n[2]", &mut out).unwrap();
    decoder.message(b"", &mut out).unwrap();
    decoder.finish(&mut out);
    assert_eq!(out, vec![complete(b"[1]\n[2]"), complete(b"")]);
    assert!(decoder.push(b"[1]", &mut out).is_err());
    assert!(Decoder::new(Framing::Jsonl)
        .message(b"[1]", &mut out)
        .is_err());
}

// --- RFC 7464 (CL-D07-4, PRJ-RUI-FRAME-08/09) ---

#[test]
fn json_seq_rs_prefixed_lf_terminated_texts() {
    let frames = decode(Framing::JsonSeq, b"\x1e[1]\n\x1e{\n\"a\": 2\n}\n");
    assert_eq!(
        frames,
        vec![complete(b"[1]\n"), complete(b"{\n\"a\": 2\n}\n")]
    );
}

#[test]
fn json_seq_text_cut_by_the_next_rs_or_the_end_is_truncated() {
    assert_eq!(
        decode(Framing::JsonSeq, b"\x1e[\"be\x1e[2]\n"),
        vec![TRUNCATED, complete(b"[2]\n")]
    );
    // Parseable but without its LF: still cut by the next RS.
    assert_eq!(
        decode(Framing::JsonSeq, b"\x1e[1]\x1e[2]\n"),
        vec![TRUNCATED, complete(b"[2]\n")]
    );
    assert_eq!(
        decode(Framing::JsonSeq, b"\x1e[1]\n\x1e[2]"),
        vec![complete(b"[1]\n"), TRUNCATED]
    );
}

#[test]
fn json_seq_consecutive_rs_and_a_final_rs_yield_nothing() {
    assert_eq!(
        decode(Framing::JsonSeq, b"\x1e\x1e\x1e[1]\n\x1e"),
        vec![complete(b"[1]\n")]
    );
}

#[test]
fn json_seq_lf_only_text_is_a_frame_that_is_not_json() {
    assert_eq!(decode(Framing::JsonSeq, b"\x1e\n"), vec![complete(b"\n")]);
    assert_eq!(parse_frame(b"\n"), Err(QuarantineCode::FrameNotJson));
}

#[test]
fn json_seq_bytes_before_the_first_rs_are_one_invalid_frame() {
    assert_eq!(
        decode(Framing::JsonSeq, b"[0]\n\x1e[1]\n"),
        vec![NOT_JSON, complete(b"[1]\n")]
    );
}

// --- One frame, one JSON value (RUI-FRAME-01, PRJ-RUI-FRAME-01) ---

#[test]
fn frame_must_hold_exactly_one_json_value() {
    assert_eq!(parse_frame(b" [1] \r"), Ok(serde_json::json!([1])));
    for bad in [
        &b"[1] [2]"[..],
        b"[1]]",
        b"[1",
        b"",
        b"   ",
        b"[\"\xff\"]",
        b"[\"\xed\xa0\x80\"]",
        b"x[1]",
    ] {
        assert_eq!(
            parse_frame(bad),
            Err(QuarantineCode::FrameNotJson),
            "{:?}",
            String::from_utf8_lossy(bad)
        );
    }
}

#[test]
fn record_text_length_excludes_surrounding_whitespace_only() {
    assert_eq!(record_text_len(b"[1, 2]"), 6);
    assert_eq!(record_text_len(b"\n [1,\n2]\r\n"), 6);
    assert_eq!(record_text_len(b" \n"), 0);
}

// --- Chunking (CL-D07-5) ---

/// Bytes drawn mostly from the delimiters and field names the decoders look at, plus multi-byte
/// UTF-8 and arbitrary bytes.
fn stream_bytes() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        Just(b"\n".to_vec()),
        Just(b"\r".to_vec()),
        Just(b"\r\n".to_vec()),
        Just(vec![RS]),
        Just(b"data: ".to_vec()),
        Just(b"data:".to_vec()),
        Just(b": c\n".to_vec()),
        Just(b"event: x\n".to_vec()),
        Just(b"\xEF\xBB\xBF".to_vec()),
        Just("é€😀".as_bytes().to_vec()),
        Just(b"[\"begin\",0,\"t\",0]".to_vec()),
        Just(b"[1]".to_vec()),
        Just(b"  ".to_vec()),
        proptest::collection::vec(any::<u8>(), 1..4),
    ];
    proptest::collection::vec(piece, 0..24).prop_map(|pieces| pieces.concat())
}

/// `stream` cut at these (sorted, deduplicated) offsets.
fn cut<'a>(stream: &'a [u8], cuts: &[usize]) -> Vec<&'a [u8]> {
    let mut offsets: Vec<usize> = cuts.iter().map(|c| c % (stream.len() + 1)).collect();
    offsets.sort_unstable();
    offsets.dedup();
    let mut chunks = Vec::new();
    let mut previous = 0;
    for offset in offsets.into_iter().chain([stream.len()]) {
        chunks.push(&stream[previous..offset]);
        previous = offset;
    }
    chunks
}

/// 256 cases unless `PROPTEST_CASES` says otherwise.
fn config() -> ProptestConfig {
    let mut config = ProptestConfig::default();
    if std::env::var_os("PROPTEST_CASES").is_none() {
        config.cases = 256;
    }
    config
}

proptest! {
    #![proptest_config(config())]

    /// Any chunking (empty chunks included) of any byte stream gives the frames of the one-chunk
    /// decode, in every stream framing.
    #[test]
    fn any_chunking_gives_the_same_frames(
        stream in stream_bytes(),
        cuts in proptest::collection::vec(any::<usize>(), 0..12),
    ) {
        for framing in [Framing::Jsonl, Framing::Sse, Framing::JsonSeq] {
            let whole = decode(framing, &stream);
            let chunked = decode_chunks(framing, &cut(&stream, &cuts));
            prop_assert_eq!(&chunked, &whole, "{}", framing.name());
            let bytewise: Vec<&[u8]> = stream.chunks(1).collect();
            prop_assert_eq!(&decode_chunks(framing, &bytewise), &whole, "{} byte by byte", framing.name());
        }
    }

    /// No frame a decoder surfaces holds a delimiter that should have ended it, and each
    /// decode of arbitrary bytes terminates without panicking.
    #[test]
    fn frames_never_span_a_delimiter(stream in proptest::collection::vec(any::<u8>(), 0..256)) {
        for frame in decode(Framing::Jsonl, &stream) {
            if let DecodedFrame::Complete(bytes) = frame {
                prop_assert!(!bytes.contains(&b'\n'));
            }
        }
        for frame in decode(Framing::JsonSeq, &stream) {
            if let DecodedFrame::Complete(bytes) = frame {
                prop_assert!(!bytes.contains(&RS));
                prop_assert_eq!(bytes.last(), Some(&b'\n'));
            }
        }
        for frame in decode(Framing::Sse, &stream) {
            if let DecodedFrame::Complete(bytes) = frame {
                prop_assert!(!bytes.contains(&b'\r'));
            }
        }
    }
}

/// Three framings deliver a byte stream and WebSocket whole messages (spec "Framing"), which is
/// what a host is told when it feeds the wrong kind of input.
#[test]
fn only_websocket_delivers_whole_messages() {
    let streams: Vec<&str> = Framing::ALL
        .into_iter()
        .filter(|f| f.is_stream())
        .map(Framing::name)
        .collect();
    assert_eq!(streams, ["jsonl", "sse", "json-seq"]);
    let wrong = reference::rui::framing::WrongInputKind {
        framing: Framing::WebSocket,
    };
    assert!(wrong.to_string().contains("takes whole messages"));
}
