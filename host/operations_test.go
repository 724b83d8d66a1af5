package host

import (
	"context"
	"encoding/base64"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/grip-dev/grip/protocol"
	"github.com/grip-dev/grip/refcache"
)

// TestEveryOperationHasAnEntry: the host's table serves exactly the rows
// of protocol.Operations, each with the row's argument and result types,
// so a row added without an entry (or an entry for an operation protocol
// does not know, or a handler of other types than the row says) fails
// here, instead of being served without the person's controls.
func TestEveryOperationHasAnEntry(t *testing.T) {
	rows := map[string]bool{}
	for _, row := range protocol.Operations() {
		if rows[row.Name] {
			t.Errorf("protocol.Operations has two rows for %q", row.Name)
		}
		rows[row.Name] = true
		op, ok := operations()[row.Name]
		if !ok {
			t.Errorf("operation %q has no entry in host/operations.go", row.Name)
			continue
		}
		if op.args != reflect.TypeFor[noArgs]() && op.args != row.Args {
			t.Errorf("%s: the handler takes %v, the row says %v", row.Name, op.args, row.Args)
		}
		if res := op.result; res != row.Result && (res.Kind() != reflect.Pointer || res.Elem() != row.Result) {
			t.Errorf("%s: the handler returns %v, the row says %v", row.Name, res, row.Result)
		}
	}
	for op := range operations() {
		if !rows[op] {
			t.Errorf("host/operations.go serves %q, which protocol.Operations has no row for", op)
		}
	}
}

// TestEntriesAgreeWithTheRows: a row that reads a tab and does not act
// has an entry that names the tab a request reads (its scope), which the
// gate checks; a row that acts, lists or reads no page has none, as its
// gate is the action pipeline, the handler's filter, or nothing.
func TestEntriesAgreeWithTheRows(t *testing.T) {
	for _, row := range protocol.Operations() {
		want := row.Reads >= protocol.ReachTab && !row.Acts
		if got := operations()[row.Name].scoped; got != want {
			t.Errorf("%s: the entry names a tab: %v; its row (reads %s, acts %v) wants %v", row.Name, got, row.Reads, row.Acts, want)
		}
	}
}

// TestUnknownOperationRefused: an operation with no entry is a bad
// request, never served as something else.
func TestUnknownOperationRefused(t *testing.T) {
	h := &Host{}
	_, err := h.serve(context.Background(), protocol.Request{ID: 1, Op: "format_disk"})
	if e := protocol.AsError(err); e.Code != protocol.CodeBadRequest || e.Boundary != protocol.BoundaryPayload {
		t.Fatalf("unknown operation: %v, want bad_request at the payload", err)
	}
}

// TestWaitScope: what a wait reads decides its gate.
func TestWaitScope(t *testing.T) {
	h := &Host{refs: refcache.New()}
	tests := []struct {
		name string
		args protocol.WaitArgs
		want readKind
	}{
		{"only time passes", protocol.WaitArgs{MS: 100}, readNone},
		{"a download anywhere", protocol.WaitArgs{Download: true}, readNone},
		{"a download of a tab", protocol.WaitArgs{Download: true, Tab: 3}, readInfo},
		{"text in every frame", protocol.WaitArgs{Text: "Saved"}, readProbe},
		{"a ref that is unknown is gone already", protocol.WaitArgs{Gone: "@e99"}, readNone},
		{"a malformed ref is refused by the wait", protocol.WaitArgs{Gone: "@x"}, readNone},
		{"a URL", protocol.WaitArgs{URL: "/done"}, readInfo},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := tc.args
			if got := waitScope(h, &args).kind; got != tc.want {
				t.Errorf("waitScope(%+v) = %v, want %v", tc.args, got, tc.want)
			}
		})
	}
}

// TestTabActionsHaveTheirRequest: every action on a whole tab (its Ext in
// protocol.Actions) is carried by the request performOnTab sends for it,
// the one of that name.
func TestTabActionsHaveTheirRequest(t *testing.T) {
	for _, spec := range protocol.Actions {
		if spec.InPage() || spec.Ext == string(protocol.ExtDialog) {
			continue
		}
		var sent string
		switch spec.Name {
		case protocol.ActTabNew:
			sent = string(protocol.ExtTabNew)
		case protocol.ActTabSelect:
			sent = string(protocol.ExtTabSelect)
		default:
			c, ok := tabCalls[spec.Name]
			if !ok {
				t.Errorf("the tab action %s has no request in tabCalls", spec.Name)
				continue
			}
			sent = string(c)
		}
		if sent != spec.Ext {
			t.Errorf("%s sends %q, protocol.Actions says %q", spec.Name, sent, spec.Ext)
		}
	}
}

// TestExtensionRequestsHaveAnEntry: the host answers exactly the requests
// protocol.HostCalls lists, each through its typed entry.
func TestExtensionRequestsHaveAnEntry(t *testing.T) {
	got := slices.Sorted(maps.Keys(extensionRequests()))
	want := slices.Sorted(slices.Values(protocol.HostRequests))
	if !slices.Equal(got, want) {
		t.Errorf("the host answers %v, protocol.HostCalls lists %v", got, want)
	}
}

// TestExtensionCallsAreTyped: every request the host sends the extension
// goes through callExt, extCall or extStart, which take a typed request of
// protocol/extension.go, never a bare name: only port.go and extcall.go, where
// those live, touch the port's untyped call.
func TestExtensionCallsAreTyped(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") || name == "port.go" || name == "extcall.go" {
			continue
		}
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, bare := range []string{"port.call(", "port.start("} {
			if strings.Contains(string(b), bare) {
				t.Errorf("%s calls %s with a bare request name: use callExt, extCall or extStart", name, bare)
			}
		}
	}
}

// TestGateHoldsAScopeToItsRow: a scope that reads more of a tab than its
// row says, or a row that reads a tab with no tab named, is refused before
// any handler runs, as an internal error, not served.
func TestGateHoldsAScopeToItsRow(t *testing.T) {
	h := &Host{}
	row, _ := protocol.OperationNamed(protocol.OpDialog) // reads the tab's dialog only
	tab := 3
	if err := h.gate(context.Background(), row, readScope{&tab, readScreenshot}); protocol.AsError(err).Code != protocol.CodeInternal {
		t.Errorf("a dialog read scoped as a screenshot: %v, want internal", err)
	}
	if err := h.gate(context.Background(), row, readScope{nil, readInfo}); protocol.AsError(err).Code != protocol.CodeInternal {
		t.Errorf("a dialog read naming no tab: %v, want internal", err)
	}
	if got, ok := resultTab(&protocol.PDFResult{Tab: protocol.TabRef{ID: 7}}); !ok || got.ID != 7 {
		t.Errorf("resultTab of a PDF = %v, %v", got, ok)
	}
	if _, ok := resultTab(&protocol.TabsResult{}); ok {
		t.Error("resultTab found a tab in a tab list")
	}
}

// TestPictureJudgedAgainWithItsFrames: a blocked frame that comes into a
// page between the gate's check and the capture refuses the picture: the
// gate judges the tab the result names again, with its frames, for a PDF
// as for a screenshot (before, a PDF was judged again by its URL only).
func TestPictureJudgedAgainWithItsFrames(t *testing.T) {
	const top = "https://shop.example/cart"
	var mu sync.Mutex
	captured := false
	c, _ := startGuardHostWith(t, "block pay.example\n", protocol.ExtensionHello{}, func(msg protocol.NativeMessage) (any, *protocol.Error) {
		mu.Lock()
		defer mu.Unlock()
		switch msg.Type {
		case string(protocol.ExtDocuments):
			return protocol.DocumentsReply{Documents: []protocol.LiveDocument{}}, nil
		case string(protocol.ExtTabs):
			return protocol.TabsResult{Tabs: []protocol.Tab{{ID: 5, URL: top, Title: "Shop", Active: true}}}, nil
		case string(protocol.ExtFrames):
			frames := []protocol.FrameInfo{{FrameID: 0, ParentFrameID: -1, DocumentID: "top", URL: top}}
			if captured { // the frame came in while the picture was taken
				frames = append(frames, protocol.FrameInfo{FrameID: 3, ParentFrameID: 0, DocumentID: "card", URL: "https://pay.example/card"})
			}
			return protocol.FramesReply{Frames: frames}, nil
		case string(protocol.ExtPDF):
			captured = true
			return protocol.PDFReply{Tab: protocol.TabRef{ID: 5, URL: top, Title: "Shop"}, Data: base64.StdEncoding.EncodeToString([]byte("%PDF-1.4 card 4111"))}, nil
		}
		return nil, &protocol.Error{Code: protocol.CodeBadRequest, Message: "fake: " + msg.Type}
	})
	var res protocol.PDFResult
	perr := call(t, c, protocol.OpPDF, protocol.PDFArgs{Tab: 5}, &res)
	if perr == nil || perr.Code != protocol.CodePolicy || !strings.Contains(perr.Message, "frame 3, which is blocked") {
		t.Errorf("a PDF that took in a blocked frame: %+v, %d bytes", perr, len(res.PDF))
	}
}
