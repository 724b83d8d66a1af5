package host

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/grip-dev/grip/client"
	"github.com/grip-dev/grip/policy"
	"github.com/grip-dev/grip/protocol"
)

// downloadsFake plays the extension for the downloads' policy tests: the
// profile's downloads, and a wait that answers them in order after the
// id it is given.
type downloadsFake struct {
	mu       sync.Mutex
	list     []protocol.Download
	waits    []protocol.DownloadWaitParams // guarded by mu
	listings []protocol.DownloadsParams    // guarded by mu
}

func (f *downloadsFake) handle(msg protocol.NativeMessage) (any, *protocol.Error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch msg.Type {
	case string(protocol.ExtDocuments):
		return protocol.DocumentsReply{Documents: []protocol.LiveDocument{}}, nil
	case string(protocol.ExtTabs):
		return protocol.TabsResult{Tabs: []protocol.Tab{{ID: 5, URL: "https://shop.example/", Active: true}, {ID: 7, URL: "https://pay.example/export"}}}, nil
	case string(protocol.ExtTabInfo):
		return protocol.TabRef{ID: 5, URL: "https://shop.example/", Title: "Shop"}, nil
	case string(protocol.ExtDownloads):
		var p protocol.DownloadsParams
		json.Unmarshal(msg.Params, &p)
		f.listings = append(f.listings, p)
		return protocol.DownloadsReply{Downloads: f.list}, nil
	case string(protocol.ExtDownloadWait):
		var p protocol.DownloadWaitParams
		json.Unmarshal(msg.Params, &p)
		f.waits = append(f.waits, p)
		for _, d := range f.list {
			if d.ID > p.AfterID {
				return d, nil
			}
		}
		return nil, &protocol.Error{Code: protocol.CodeTimeout, Boundary: protocol.BoundaryBrowser, Message: "no download finished"}
	}
	return nil, &protocol.Error{Code: protocol.CodeBadRequest, Message: "fake: " + msg.Type}
}

// startFilesHost runs a host with policyText in force and the tabs of
// shared shared, served by f.
func startFilesHost(t *testing.T, policyText string, shared []int, f *downloadsFake) *client.Client {
	t.Helper()
	fx, _, dirs := startHost(t, "")
	if err := os.MkdirAll(dirs.Root, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(policy.Path(dirs.Root), []byte(policyText), 0o600); err != nil {
		t.Fatal(err)
	}
	fx.send(protocol.NativeMessage{Type: "hello", Params: mustJSON(protocol.ExtensionHello{
		Protocol: protocol.Version, Profile: "files1", ExtensionVersion: "0.1.0", SharedTabs: shared})})
	fx.answer(f.handle)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := client.Connect(ctx, client.Options{RuntimeDir: dirs.Runtime, Wait: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// someDownloads: one of a blocked site, one of its blob, one of an open
// site in tab 5, one of an open site in no known tab.
var someDownloads = []protocol.Download{
	{ID: 1, Path: "/d/statement.pdf", State: "complete", URL: "https://pay.example/statement.pdf", Tab: 6},
	{ID: 2, Path: "/d/card.csv", State: "complete", URL: "blob:https://pay.example/0b4c", Tab: 5},
	{ID: 3, Path: "/d/invoice.pdf", State: "complete", URL: "https://shop.example/invoice.pdf", Tab: 5},
	{ID: 4, Path: "/d/notes.txt", State: "complete", URL: "https://docs.example/notes.txt"},
}

func downloadIDs(list []protocol.Download) []int {
	var ids []int
	for _, d := range list {
		ids = append(ids, d.ID)
	}
	return ids
}

// TestDownloadsFollowThePolicy: agents learn of no download from a site
// the person blocked (a blob of it neither), a wait passes over one, and
// in the shared mode only a shared tab's downloads are theirs.
func TestDownloadsFollowThePolicy(t *testing.T) {
	f := &downloadsFake{list: someDownloads}
	c := startFilesHost(t, "block pay.example\n", nil, f)
	var list protocol.DownloadsResult
	if perr := call(t, c, protocol.OpDownloads, protocol.DownloadsArgs{}, &list); perr != nil {
		t.Fatal(perr)
	}
	if got := downloadIDs(list.Downloads); !slices.Equal(got, []int{3, 4}) {
		t.Errorf("listed %v, want [3 4]", got)
	}
	var res protocol.ActionResult
	if perr := call(t, c, protocol.OpWait, protocol.WaitArgs{Download: true, TimeoutMS: 2000}, &res); perr != nil {
		t.Fatal(perr)
	}
	if res.Download == nil || res.Download.ID != 3 {
		t.Errorf("wait returned %+v, want download 3", res.Download)
	}
	f.mu.Lock()
	var after []int
	for _, w := range f.waits {
		after = append(after, w.AfterID)
	}
	f.mu.Unlock()
	if !slices.Equal(after, []int{0, 1, 2}) {
		t.Errorf("the worker was asked after ids %v, want [0 1 2] (past the blocked ones)", after)
	}
	// The next wait starts after the one returned.
	if perr := call(t, c, protocol.OpWait, protocol.WaitArgs{Download: true, TimeoutMS: 2000}, &res); perr != nil || res.Download.ID != 4 {
		t.Errorf("second wait: %+v %v, want download 4", res.Download, perr)
	}
}

func TestDownloadsInTheSharedMode(t *testing.T) {
	f := &downloadsFake{list: someDownloads}
	c := startFilesHost(t, "tabs = shared\n", []int{5}, f)
	var list protocol.DownloadsResult
	if perr := call(t, c, protocol.OpDownloads, protocol.DownloadsArgs{}, &list); perr != nil {
		t.Fatal(perr)
	}
	if got := downloadIDs(list.Downloads); !slices.Equal(got, []int{2, 3}) {
		t.Errorf("listed %v, want the shared tab's [2 3]", got)
	}
	// A wait naming a tab not shared is refused before the browser.
	perr := call(t, c, protocol.OpWait, protocol.WaitArgs{Download: true, Tab: 6, TimeoutMS: 500}, nil)
	if perr == nil || perr.Code != protocol.CodePolicy {
		t.Errorf("wait on tab 6: %v, want a policy refusal", perr)
	}
}

// TestBlockedPagesExportsStayHidden: a client-side export (data: or
// blob:) is judged by the strictest rule of its URL, the URL it was asked
// for, its referrer and the tab that started it: one of a blocked page is
// neither listed, nor named, nor returned by a wait; what is shown carries
// no referrer.
func TestBlockedPagesExportsStayHidden(t *testing.T) {
	f := &downloadsFake{list: []protocol.Download{
		{ID: 1, Path: "/d/statement.csv", State: "complete", URL: "data:text/csv,account,balance%0A1234,5123.45", Referrer: "https://pay.example/statements"},
		{ID: 2, Path: "/d/export.csv", State: "complete", URL: "data:text/csv,iban,DE89", Tab: 7},
		{ID: 3, Path: "/d/report.pdf", State: "complete", URL: "https://cdn.example/r.pdf", SourceURL: "https://pay.example/report?id=9"},
		{ID: 4, Path: "/d/notes.csv", State: "complete", URL: "data:text/csv,a,b", Referrer: "https://shop.example/cart", Tab: 5},
	}}
	c := startFilesHost(t, "block pay.example\n", nil, f)
	var list protocol.DownloadsResult
	if perr := call(t, c, protocol.OpDownloads, protocol.DownloadsArgs{}, &list); perr != nil {
		t.Fatal(perr)
	}
	if got := downloadIDs(list.Downloads); !slices.Equal(got, []int{4}) {
		t.Errorf("listed %v, want [4]", got)
	}
	for _, d := range list.Downloads {
		if d.Referrer != "" || d.SourceURL != "" {
			t.Errorf("download %d carries what only the host judges by: %+v", d.ID, d)
		}
	}
	var res protocol.ActionResult
	if perr := call(t, c, protocol.OpWait, protocol.WaitArgs{Download: true, TimeoutMS: 2000}, &res); perr != nil {
		t.Fatal(perr)
	}
	if res.Download == nil || res.Download.ID != 4 {
		t.Errorf("wait returned %+v, want download 4", res.Download)
	}
}
