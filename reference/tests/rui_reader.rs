//! The one-pass frame reader (`reference::rui::reader`, issue 29 §3) decides every frame as the
//! three steps it replaces do one after the other: `parse_frame` (RUI-FRAME-01, PRJ-RUI-FRAME-01:
//! `FRAME_NOT_JSON`), `repeats_a_name` (PRJ-RUI-REC-06) and `parse_record` (CL-D01-1..9,
//! CL-D05-9, PRJ-RUI-REC-04), on hand-picked frames at every edge the parser and the record
//! shapes have, on every record of the generated validate stream, and on generated frames (record
//! tuples of every shape with fields of every kind, repeated names, then bytes changed, cut or
//! inserted). `PROPTEST_CASES` raises the count.

use proptest::prelude::*;
use reference::rui::framing::{parse_frame, repeats_a_name};
use reference::rui::reader::read_frame;
use reference::rui::records::parse_record;

/// What the three steps decide: the quarantine code, or (record or its error, repeated name).
fn three_steps(bytes: &[u8]) -> String {
    match parse_frame(bytes) {
        Err(code) => format!("{code:?}"),
        Ok(value) => format!("{:?} {}", parse_record(value), repeats_a_name(bytes)),
    }
}

fn one_pass(bytes: &[u8]) -> String {
    match read_frame(bytes) {
        Err(code) => format!("{code:?}"),
        Ok(frame) => format!("{:?} {}", frame.record, frame.repeats_a_name),
    }
}

fn agree(bytes: &[u8]) -> Result<(), TestCaseError> {
    prop_assert_eq!(one_pass(bytes), three_steps(bytes), "{:?}", String::from_utf8_lossy(bytes));
    Ok(())
}

#[test]
fn hand_picked_frames_are_read_as_the_three_steps_read_them() {
    let deep = |n: usize| format!("[\"data\",1,\"/a\",{}{}]", "[".repeat(n), "]".repeat(n));
    let mut frames: Vec<Vec<u8>> = [
        r#"["begin",0,"t1",0]"#,
        r#"["begin",1,"t1",0]"#,
        r#"["begin",-0,"t1",0]"#,
        r#"["begin",0.0,"t1",0]"#,
        r#"["begin",0,"t1",1e0]"#,
        r#"["begin",0,"t1",18446744073709551615]"#,
        r#"["begin",0,"t1",18446744073709551616]"#,
        r#"["begin",0,"t1",-1]"#,
        r#"["begin",0,"t1"]"#,
        r#"["begin",0,"t1",0,0]"#,
        r#"["begin",0,7,0]"#,
        r#"["node",1,"n","Text",{"text":"x"},[]]"#,
        r#"["node",1,"n","Text",{"text":"x","text":"y","a":1},["a","b"]]"#,
        r#"["node",1,"n","Text",{"text":"x"},["a",1]]"#,
        r#"["node",1,"n","Text",[],[]]"#,
        r#"["node",1,"n","Text",{},{}]"#,
        r#"["node",1,"n\u0000","T\"ext",{"\u0061":1,"a":2},[]]"#,
        r#"["data",1,"/a",null]"#,
        r#"["data",1,"/a",{"b":[1,2.5,-3,true,false,null,"s",{"c":{}}]}]"#,
        r#"["data",1,"/a",1e400]"#,
        r#"["data",1,"/a",-1e-400]"#,
        r#"["data",1,"/a","\ud800"]"#,
        r#"["data",1,"/a","\ud83d\ude00"]"#,
        r#"["data",1,"/a"]"#,
        r#"["delete",1,"node","n"]"#,
        r#"["delete",1,"data","/a"]"#,
        r#"["delete",1,"Node","n"]"#,
        r#"["delete",1,"data",{"x":1,"x":2}]"#,
        r#"["commit",2,1,"r"]"#,
        r#"["commit",2,1.5,"r"]"#,
        r#"["abort",2,"E","m"]"#,
        r#"["abort",2,"E"]"#,
        r#"["Begin",0,"t",0]"#,
        r#"["bogus"]"#,
        r#"["bogus",{"a":1,"a":1},[1,[2,{}]]]"#,
        r#"[]"#,
        r#"[1,"begin"]"#,
        r#"[{"a":1,"a":2}]"#,
        r#"[["x"],{"a":1}]"#,
        r#"{"begin":0}"#,
        r#"{"a":1,"a":2}"#,
        r#""begin""#,
        "3",
        "null",
        "true",
        "",
        " ",
        r#"["begin",0,"t1",0] x"#,
        r#"["begin",0,"t1",0]]"#,
        r#"["begin",0,"t1",0,]"#,
        r#"["begin",0,"t1",0"#,
        " \t\r\n[\"commit\",1,1,\"r\"] \r\n",
        r#"["node",1,"n","Text",{"a":1,},[]]"#,
        r#"["node",1,"n","Text",{1:1},[]]"#,
    ]
    .iter()
    .map(|s| s.as_bytes().to_vec())
    .collect();
    frames.push(b"[\"data\",1,\"/a\",\"\xff\"]".to_vec());
    frames.push(b"[\"bogus\",\"\xc3\"]".to_vec());
    frames.push(b"\xEF\xBB\xBF[\"commit\",1,1,\"r\"]".to_vec());
    for n in [120, 126, 127, 128, 129, 200] {
        frames.push(deep(n).into_bytes());
        frames.push(format!("[\"bogus\",{}{}]", "{\"a\":".repeat(n), "}".repeat(n)).into_bytes());
    }
    for frame in &frames {
        assert_eq!(one_pass(frame), three_steps(frame), "{:?}", String::from_utf8_lossy(frame));
    }
}

#[test]
fn the_generated_stream_s_records_are_read_as_the_three_steps_read_them() {
    let generated: Vec<serde_json::Value> = (0..3u64)
        .flat_map(|i| {
            [
                serde_json::json!(["begin", 0, format!("t{i}"), i]),
                serde_json::json!(["node", 1, "root", "Stack", { "gap": 8 }, ["title", "body"]]),
                serde_json::json!(["data", 4, "/status", { "count": i, "label": "generated", "ok": true }]),
                serde_json::json!(["commit", 5, i + 1, "root"]),
            ]
        })
        .collect();
    for record in generated {
        let bytes = serde_json::to_vec(&record).unwrap();
        assert_eq!(one_pass(&bytes), three_steps(&bytes));
        assert!(one_pass(&bytes).starts_with("Ok("), "{record}");
    }
}

/// JSON text of any shape, with repeated member names now and then.
fn json_text() -> impl Strategy<Value = String> {
    let scalar = prop_oneof![
        Just("null".to_string()),
        Just("true".to_string()),
        Just("false".to_string()),
        any::<u64>().prop_map(|n| n.to_string()),
        any::<i64>().prop_map(|n| n.to_string()),
        any::<f64>().prop_map(|f| format!("{f:?}")),
        prop_oneof![Just("0"), Just("-0"), Just("1.0"), Just("1e0"), Just("1e400"), Just("00")].prop_map(str::to_string),
        "[a-z\\\\\"\u{0}-\u{7f}é😀]{0,6}".prop_map(|s| serde_json::to_string(&s).unwrap()),
        prop_oneof![Just(r#""\u0061""#), Just(r#""\ud800""#), Just(r#""\n""#)].prop_map(str::to_string),
    ];
    scalar.prop_recursive(4, 40, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(|items| format!("[{}]", items.join(","))),
            prop::collection::vec((prop_oneof![Just("a"), Just("b"), Just("\\u0061"), Just("text")], inner), 0..5)
                .prop_map(|members| format!("{{{}}}", members.iter().map(|(k, v)| format!("\"{k}\":{v}")).collect::<Vec<_>>().join(","))),
        ]
    })
}

/// A record tuple: a tag (known, unknown or not a string) and fields of any kind and number.
fn frame_text() -> impl Strategy<Value = String> {
    let tag = prop_oneof![
        prop_oneof![Just("begin"), Just("node"), Just("data"), Just("delete"), Just("commit"), Just("abort"), Just("other")]
            .prop_map(|t| format!("\"{t}\"")),
        json_text(),
    ];
    let field = prop_oneof![
        3 => prop_oneof![Just("0"), Just("1"), Just("2")].prop_map(str::to_string),
        3 => prop_oneof![Just("\"n\""), Just("\"node\""), Just("\"data\""), Just("\"/a\""), Just("[\"a\",\"b\"]"), Just("[]"), Just("{}")].prop_map(str::to_string),
        2 => json_text(),
    ];
    (tag, prop::collection::vec(field, 0..7), any::<bool>())
        .prop_map(|(tag, fields, spaced)| {
            let separator = if spaced { " , " } else { "," };
            format!("[{}]", std::iter::once(tag).chain(fields).collect::<Vec<_>>().join(separator))
        })
}

fn config() -> ProptestConfig {
    let mut config = ProptestConfig::default();
    if std::env::var_os("PROPTEST_CASES").is_none() {
        config.cases = 2000;
    }
    config
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn generated_frames_are_read_as_the_three_steps_read_them(text in frame_text()) {
        agree(text.as_bytes())?;
    }

    #[test]
    fn generated_frames_changed_cut_or_grown_are_read_as_the_three_steps_read_them(
        text in frame_text(),
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0..3u8), 1..4),
    ) {
        let mut bytes = text.into_bytes();
        for (at, byte, kind) in edits {
            let len = bytes.len();
            match kind {
                0 if len > 0 => bytes[at.index(len)] = byte,
                1 => bytes.truncate(at.index(len + 1)),
                _ => bytes.insert(at.index(len + 1), byte),
            }
        }
        agree(&bytes)?;
    }
}
