package host

import (
	"encoding/json"

	"fmt"
	gojson "github.com/goccy/go-json"

	"github.com/grip-dev/grip/protocol"
	"reflect"
	"strings"
	"testing"
)

// aReply is a snapshot reply as the worker writes one: frames of elements
// of every kind the kernel reports.
func aReply(frames, perFrame int) []byte {
	roles := []string{"button", "link", "textbox", "checkbox", "combobox", "tab", "menuitem", "listbox", "option", "searchbox"}
	var b strings.Builder
	b.WriteString(`{"tab":{"id":5,"url":"http://127.0.0.1:8000/gen?n=5000&f=10","title":"Generated"},"frames":[`)
	for f := range frames {
		if f > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"frameId":%d,"documentId":"%032X","url":"http://localhost:9000/genframe?s=f%d","title":"Frame f%d","elements":[`, f, f*7919, f, f)
		for i := range perFrame {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"id":%d,"role":"%s","name":"Save item f%d-%d"`, 2*i+1, roles[i%len(roles)], f, i)
			switch i % 10 {
			case 1:
				fmt.Fprintf(&b, `,"href":"http://localhost:9000/genframe?s=f%d#r%d"`, f, i)
			case 2:
				b.WriteString(`,"value":"v\"1\" \\ é"`)
			case 3:
				b.WriteString(`,"states":["checked","inferred"]`)
			case 4:
				b.WriteString(`,"value":"Small","ctx":"Group f1-0"`)
			}
			b.WriteByte('}')
		}
		fmt.Fprintf(&b, `],"stats":{"nodes":%d,"ms":9.25},"walk":"k3j4.%d","alive":[7,9]}`, perFrame*3, f)
	}
	b.WriteString(`],"timing":{"injectMs":40.5,"totalMs":42.1}}`)
	return []byte(b.String())
}

// replyCases are snapshot replies the decoder takes its own way, and ones
// it must leave to encoding/json: every kind of value, null, escapes,
// text that is not UTF-8, keys it does not know, twice or in other case,
// numbers an int cannot hold, and what is not JSON at all.
var replyCases = []string{
	`{"tab":{"id":1,"url":"u","title":"t"},"frames":[]}`,
	`{"tab":{"id":1},"frames":[{"frameId":0,"documentId":"D","url":"u","elements":[{"id":1,"role":"button","name":"Go"}]}]}`,
	`{"frames":[{"frameId":2,"documentId":"D","url":"u","same":true,"walk":"w.1","alive":[]}],"loading":true}`,
	`{"frames":[{"frameId":2,"error":"navigated during the snapshot","documentId":"","url":""}]}`,
	`{"frames":[{"elements":[{"id":3,"role":"textbox","name":"N","value":"","states":[]}]}]}`,
	`{"frames":[{"elements":[{"id":3,"value":null,"states":null,"href":null}],"stats":null,"said":[{"role":"alert","text":"Saved","id":4}]}]}`,
	`{"frames":[null,{"elements":[null]}],"timing":null,"dialog":null,"settle":{"settled":true,"ms":3}}`,
	`{"dialog":{"type":"alert","message":"hi"},"tab":{"id":2},"frames":[]}`,
	` { "frames" : [ { "frameId" : 1 , "elements" : [ { "id" : 1 , "name" : "a b" } ] } ] } `,
	`{"frames":[{"elements":[{"name":"\u00e9\ud83d\ude00 \n\t\"\\/\b\f\r"}]}]}`,
	`{"frames":[{"elements":[{"name":"lone \ud800 surrogate"}]}]}`,
	"{\"frames\":[{\"elements\":[{\"name\":\"not UTF-8 \xff\xfe end\",\"role\":\"\xc3\"}]}]}",
	"{\"frames\":[{\"elements\":[{\"name\":\"raw control \x01\"}]}]}",
	`{"frames":[{"elements":[{"name":"\x"}]}]}`,
	`{"frames":[{"elements":[{"id":1.5}]}]}`,
	`{"frames":[{"elements":[{"id":1e3}]}]}`,
	`{"frames":[{"elements":[{"id":-0}]}]}`,
	`{"frames":[{"elements":[{"id":01}]}]}`,
	`{"frames":[{"elements":[{"id":12345678901234567890123}]}]}`,
	`{"frames":[{"elements":[{"id":"7"}]}]}`,
	`{"frames":[{"frameId":1,"frameId":2}]}`,
	`{"frames":[{"FrameID":1}]}`,
	`{"frames":[{"unknown":{"deep":[1,2,{"x":null}]}}]}`,
	`{"frames":[],"frames":[{"frameId":1}]}`,
	`{"frames":[{"stats":{"nodes":1,"ms":2},"stats":{"nodes":3}}]}`,
	`{"frames":[{"frameId":2,"documentId":"D","url":"u","walk":"w.2","base":"w.1","patch":[{"at":3,"el":{"id":4,"role":"button","name":"Tick 2"}}],"elements":[]}]}`,
	`{"frames":[{"base":"w.1","patch":[{"at":-1},{"el":null},null,{"at":1.5}]}]}`,
	`{"frames":[{"patch":[[3,{"id":4}]]}]}`,
	`{"frames":[{"same":1}]}`,
	`{"frames":[{"same":true}],}`,
	`{"frames":[{"same":true}]} x`,
	`{"frames":[{"same":true}]`,
	`null`,
	`[]`,
	``,
	`{"tab":{"id":"x"},"frames":[]}`,
}

var envelopeCases = []string{
	`{"id":12,"result":{"tab":{"id":1},"frames":[]}}`,
	`{"id":0,"result":[]}`,
	`{"id":3,"result":"text"}`,
	`{"id":3,"result":null}`,
	`{"id":3,"result":{"a":1},"error":{"code":"internal","message":"x"}}`,
	`{"id":3,"error":{"code":"internal","message":"x"}}`,
	`{"type":"event","params":{"kind":"navigated","tabId":5}}`,
	`{"id":-1,"result":{}}`,
	`{"id":18446744073709551615,"result":{}}`,
	`{"id":1,"result":{"a":01}}`,
	`{"id":1,"result":{"a":"\q"}}`,
	`{"id":1,"result":{"a":1}} `,
	`{"id":1,"result":{"a":1}}}`,
	`{ "id" : 1 , "result" : { "a" : [ 1 , 2.5e-3 , true , false , null ] } }`,
	`{"id":1,"result":` + strings.Repeat("[", jsonMaxDepth) + strings.Repeat("]", jsonMaxDepth) + `}`,
	`{"id":1,"result":` + strings.Repeat("[", jsonMaxDepth+1) + strings.Repeat("]", jsonMaxDepth+1) + `}`,
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func checkReply(t *testing.T, data []byte) {
	t.Helper()
	var want, got protocol.SnapshotReply
	wantErr := json.Unmarshal(data, &want)
	gotErr := decodeSnapshotReply(data, &got)
	if errText(gotErr) != errText(wantErr) || !reflect.DeepEqual(got, want) {
		t.Fatalf("decodeSnapshotReply(%.200q) = %.300s, %v\nencoding/json: %.300s, %v", data, fmt.Sprintf("%+v", got), gotErr, fmt.Sprintf("%+v", want), wantErr)
	}
}

func checkEnvelope(t *testing.T, data []byte) {
	t.Helper()
	var want protocol.NativeMessage
	wantErr := json.Unmarshal(data, &want)
	got, gotErr := decodeNativeMessage(data)
	if errText(gotErr) != errText(wantErr) || !reflect.DeepEqual(got, want) {
		t.Fatalf("decodeNativeMessage(%.200q) = %.300s, %v\nencoding/json: %.300s, %v", data, fmt.Sprintf("%+v", got), gotErr, fmt.Sprintf("%+v", want), wantErr)
	}
}

// TestDecodersAreEncodingJSON: both decoders give what json.Unmarshal
// gives, value and error, for every case, and goccy/go-json takes the
// worker's own shape itself (not by handing it to encoding/json).
func TestDecodersAreEncodingJSON(t *testing.T) {
	big := aReply(11, 500)
	deep := func(n int) string { // the tab's member n arrays deep: nested n+2 in all
		return `{"tab":{"x":` + strings.Repeat("[", n) + strings.Repeat("]", n) + `},"frames":[]}`
	}
	for _, c := range append(replyCases, string(big), deep(jsonMaxDepth-2), deep(jsonMaxDepth-1)) {
		checkReply(t, []byte(c))
	}
	env := append(append([]byte(`{"id":77,"result":`), big...), '}')
	for _, c := range append(envelopeCases, string(env)) {
		checkEnvelope(t, []byte(c))
	}
	var r protocol.SnapshotReply
	if gojson.Unmarshal(big, &r) != nil || len(r.Frames) != 11 || len(r.Frames[3].Elements) != 500 {
		t.Errorf("goccy/go-json did not take the worker's reply itself, or decoded it short: %d frames", len(r.Frames))
	}
	var m protocol.NativeMessage
	if gojson.Unmarshal(env, &m) != nil {
		t.Error("goccy/go-json did not take the worker's frame itself")
	}
}

func FuzzDecodeSnapshotReply(f *testing.F) {
	for _, c := range replyCases {
		f.Add([]byte(c))
	}
	f.Add(aReply(2, 12))
	f.Fuzz(func(t *testing.T, b []byte) { checkReply(t, b) })
}

func FuzzDecodeNativeMessage(f *testing.F) {
	for _, c := range envelopeCases {
		f.Add([]byte(c))
	}
	f.Add(append(append([]byte(`{"id":7,"result":`), aReply(2, 12)...), '}'))
	f.Fuzz(func(t *testing.T, b []byte) { checkEnvelope(t, b) })
}

// BenchmarkDecodeSnapshot5000 decodes a 5,000-element reply in its frame,
// as the host did (encoding/json) and does.
func BenchmarkDecodeSnapshot5000(b *testing.B) {
	body := aReply(11, 455)
	env := append(append([]byte(`{"id":77,"result":`), body...), '}')
	b.Run("encoding-json", func(b *testing.B) {
		b.SetBytes(int64(len(env)))
		for b.Loop() {
			var msg protocol.NativeMessage
			if err := json.Unmarshal(env, &msg); err != nil {
				b.Fatal(err)
			}
			var raw json.RawMessage
			if err := json.Unmarshal(msg.Result, &raw); err != nil {
				b.Fatal(err)
			}
			var r protocol.SnapshotReply
			if err := json.Unmarshal(raw, &r); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("goccy-go-json", func(b *testing.B) {
		b.SetBytes(int64(len(env)))
		for b.Loop() {
			msg, err := decodeNativeMessage(env)
			if err != nil {
				b.Fatal(err)
			}
			var r protocol.SnapshotReply
			if err := decodeSnapshotReply(msg.Result, &r); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// jsonMaxDepth is how deep encoding/json nests values before it refuses
// ("exceeded max depth"): the cases hold goccy to the same bound.
const jsonMaxDepth = 10000
