package host

import (
	"encoding/json"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/grip-dev/grip/policy"
	"github.com/grip-dev/grip/protocol"
)

// readFake is guardFake with the kernel's read: every element's text is
// "text of DOCUMENT/ID", and the reads asked for are kept.
type readFake struct {
	*guardFake
	mu    sync.Mutex
	reads []protocol.ReadParams // guarded by mu
}

func (f *readFake) handle(msg protocol.NativeMessage) (any, *protocol.Error) {
	if msg.Type != string(protocol.ExtRead) {
		return f.guardFake.handle(msg)
	}
	var p protocol.ReadParams
	json.Unmarshal(msg.Params, &p)
	f.mu.Lock()
	f.reads = append(f.reads, p)
	f.mu.Unlock()
	text := "text of " + p.DocumentID
	return protocol.ReadReply{Tab: protocol.TabRef{ID: p.TabID, URL: "https://shop.example/cart", Title: "Shop"}, Text: text[min(p.From, len(text)):], Total: len(text), Role: "button", Name: "Delete"}, nil
}

func (f *readFake) asked() []protocol.ReadParams {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]protocol.ReadParams(nil), f.reads...)
}

// A read is checked as an action's target is, at the host, before the
// kernel is asked: an element of a frame blocked since its ref was handed
// out is refused (the rule is judged on the frame at every read), a CSS
// target and a stale ref name nothing the agent was told
// about, a ref of another tab than --tab is refused; the kernel is asked
// for no more than the budget can show.
func TestReadIsCheckedBeforeThePage(t *testing.T) {
	f := &readFake{guardFake: &guardFake{topURL: "https://shop.example/cart"}}
	c, dirs := startGuardHostWith(t, "confirm shop.example\n", protocol.ExtensionHello{}, f.handle)
	var snap protocol.Snapshot
	if perr := call(t, c, protocol.OpSnapshot, protocol.SnapshotArgs{}, &snap); perr != nil {
		t.Fatal(perr)
	}
	del := snap.Frames[0].Elements[0].Ref
	card := snap.Frames[1].Elements[0].Ref
	// The person blocks the card frame's site after the agent got its ref.
	if err := os.WriteFile(policy.Path(dirs.Root), []byte("confirm shop.example\nblock pay.example\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if perr := call(t, c, protocol.OpRead, protocol.ReadArgs{Target: card}, nil); perr == nil || perr.Code != protocol.CodePolicy ||
		!strings.Contains(perr.Message, "frame 3 of tab 5 is blocked") || strings.Contains(perr.Message, "pay.example/card") {
		t.Errorf("read %s of the blocked frame: %+v", card, perr)
	}

	var res protocol.ReadResult
	if perr := call(t, c, protocol.OpRead, protocol.ReadArgs{Target: del, Budget: 100}, &res); perr != nil {
		t.Fatalf("read %s: %+v", del, perr)
	}
	if res.Content != "text of top" || res.Ref != del || !strings.Contains(res.Text, "| text of top\n") {
		t.Errorf("read %s: %+v", del, res)
	}
	if got := f.asked(); len(got) != 1 || got[0].DocumentID != "top" || got[0].Max != 303 {
		t.Errorf("the kernel was asked %+v, want the top document, at most 303 characters", got)
	}

	if perr := call(t, c, protocol.OpRead, protocol.ReadArgs{Target: "#delete"}, nil); perr == nil || perr.Code != protocol.CodeInvalidLocator {
		t.Errorf("read a CSS selector: %+v", perr)
	}
	if perr := call(t, c, protocol.OpRead, protocol.ReadArgs{Target: del, Tab: 6}, nil); perr == nil || perr.Code != protocol.CodeBadRequest {
		t.Errorf("read a ref of tab 5 with --tab 6: %+v", perr)
	}
	if perr := call(t, c, protocol.OpRead, protocol.ReadArgs{Target: "@e999999"}, nil); perr == nil || perr.Code != protocol.CodeUnknownRef {
		t.Errorf("read an unknown ref: %+v", perr)
	}
	if perr := call(t, c, protocol.OpRead, protocol.ReadArgs{Target: del, From: -1}, nil); perr == nil || perr.Code != protocol.CodeBadRequest {
		t.Errorf("read from -1: %+v", perr)
	}
	if n := len(f.asked()); n != 1 {
		t.Errorf("refused reads reached the page: %d reads", n)
	}
}
