package host

import (
	"encoding/json"

	gojson "github.com/goccy/go-json"

	"github.com/grip-dev/grip/protocol"
)

// The two messages a page's read crosses the host in are decoded by
// goccy/go-json: the native-messaging frame around the extension's reply,
// and the snapshot reply in it (every frame's elements: 0.3 MiB at 5,000
// controls). encoding/json reads a value twice (a check of the whole text,
// then the decode), and the frame's result was read once more as the
// call's raw reply: 16–22 ms of a 5,000-control read on a busy 2-core
// machine, where goccy takes 3 (BenchmarkDecodeSnapshot5000). It is the
// host's alone: the CLI, which starts for every command, does not link it
// (3.3 MB more binary). What each accepts and the value it gives are
// encoding/json's (TestDecodersAreEncodingJSON and the fuzz targets beside
// it); an input goccy refuses is handed to encoding/json, so the error an
// agent or a log reads is the one it always was.

// decodeNativeMessage decodes one native-messaging frame, as
// json.Unmarshal(raw, &msg) does; msg.Result is its own copy.
func decodeNativeMessage(raw []byte) (protocol.NativeMessage, error) {
	var msg protocol.NativeMessage
	if gojson.Unmarshal(raw, &msg) == nil {
		return msg, nil
	}
	msg = protocol.NativeMessage{}
	err := json.Unmarshal(raw, &msg)
	return msg, err
}

// decodeSnapshotReply decodes the extension's snapshot reply into r, which
// must be the zero value, as json.Unmarshal(data, r) does.
func decodeSnapshotReply(data []byte, r *protocol.SnapshotReply) error {
	if gojson.Unmarshal(data, r) == nil {
		return nil
	}
	*r = protocol.SnapshotReply{}
	return json.Unmarshal(data, r)
}
