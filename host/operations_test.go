package host

import (
	"context"
	"slices"
	"testing"

	"github.com/grip-dev/grip/protocol"
	"github.com/grip-dev/grip/refcache"
)

// TestEveryOperationHasAnEntry: the table of operations serves exactly the
// operations protocol lists, so one added to protocol without an entry
// (or an entry for one protocol does not know) fails here, instead of
// being served without the person's controls.
func TestEveryOperationHasAnEntry(t *testing.T) {
	for _, op := range protocol.Operations {
		if _, ok := operations()[op]; !ok {
			t.Errorf("operation %q has no entry in host/operations.go", op)
		}
	}
	for op := range operations() {
		if !slices.Contains(protocol.Operations, op) {
			t.Errorf("host/operations.go serves %q, which protocol.Operations does not list", op)
		}
	}
}

// TestOperationKinds pins the kind of each operation: the kind decides
// which of the person's controls a request passes, so changing one is a
// decision about the person's say, not a detail.
func TestOperationKinds(t *testing.T) {
	want := map[string]opKind{
		protocol.OpHello: kindHost, protocol.OpStatus: kindHost,
		protocol.OpPause: kindPerson, protocol.OpResume: kindPerson, protocol.OpLog: kindPerson, protocol.OpPolicy: kindPerson,
		protocol.OpTabs: kindList, protocol.OpDownloads: kindList,
		protocol.OpSnapshot: kindRead, protocol.OpScreenshot: kindRead, protocol.OpDialog: kindRead, protocol.OpWait: kindRead,
		protocol.OpAct:    kindAction,
		protocol.OpRecord: kindSession,
	}
	for op, k := range want {
		if got := operations()[op].kind; got != k {
			t.Errorf("%s is a %s operation, want %s", op, got, k)
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
