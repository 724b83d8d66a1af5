// Package protocol holds grip's two wire formats and the messages they carry.
//
// Native messaging (host ⇄ extension) frames are a 4-byte length in native
// byte order followed by that many bytes of UTF-8 JSON, as Chrome defines it.
// Agent socket (CLI ⇄ host) frames are a 4-byte big-endian length followed by
// a msgpack map. Both codecs check the length before reading, never allocate
// the claimed size up front, and treat a short frame as an error. Socket
// requests have a limit of their own, far below that of replies, and every
// socket message passes Check (nesting depth, and claimed lengths against
// the bytes that hold them) before the msgpack decoder sees it.
//
// The error type here crosses both wires: every refusal carries a machine
// code, the boundary that refused, and a hint for the agent
// (docs/errors.md, "Errors").
package protocol

// Version is the protocol version spoken on the agent socket and in the
// extension's hello. A peer with another version is refused with a clear
// error rather than misread.
const Version = 1
