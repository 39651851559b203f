//! WebSocket framing (CL-D07-3 "one record per message, given to the runtime as whole messages",
//! RUI-FRAME-04): the transport has already delimited the message, so each message is one frame as
//! is; an empty message is a frame (quarantined `FRAME_NOT_JSON` when parsed). Nothing is buffered
//! between messages, so the end of the stream cuts nothing short.

use super::Frame;

pub(super) fn message(message: &[u8], on: &mut dyn FnMut(Frame<'_>)) {
    on(Frame::Complete(message));
}
