package host

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/grip-dev/grip/protocol"
)

// TestReadUploadRefusesByName: every file that cannot be uploaded is
// refused with the code the agent can act on and the file's name, before
// anything is sent.
func TestReadUploadRefusesByName(t *testing.T) {
	testReadUploadRefusals(t, nil)
}

// refusal is one case of testReadUploadRefusals.
type refusal struct {
	name  string
	paths []string
	code  protocol.Code
	parts []string
}

func testReadUploadRefusals(t *testing.T, extra []refusal) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.txt")
	if err := os.WriteFile(good, []byte("fine"), 0o600); err != nil {
		t.Fatal(err)
	}
	huge := filepath.Join(dir, "huge.bin")
	if err := os.WriteFile(huge, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(huge, protocol.MaxUploadBytes+1); err != nil {
		t.Fatal(err)
	}
	half := filepath.Join(dir, "half.bin")
	if err := os.WriteFile(half, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(half, protocol.MaxUploadBytes/2+1); err != nil {
		t.Fatal(err)
	}
	many := make([]string, protocol.MaxUploadFiles+1)
	for i := range many {
		many[i] = good
	}
	for _, tt := range append([]refusal{
		{"none", nil, protocol.CodeBadRequest, []string{"at least one file"}},
		{"missing", []string{good, filepath.Join(dir, "nope.txt")}, protocol.CodeNotFound, []string{"nope.txt", "no such file"}},
		{"relative", []string{"good.txt"}, protocol.CodeBadRequest, []string{"good.txt", "not an absolute path"}},
		{"folder", []string{dir}, protocol.CodeBadRequest, []string{dir, "folder"}},
		{"too large", []string{huge}, protocol.CodeTooLarge, []string{huge, "50 MiB"}},
		{"too large together", []string{half, half}, protocol.CodeTooLarge, []string{half, "50 MiB"}},
		{"too many", many, protocol.CodeTooLarge, []string{"101 files"}},
	}, extra...) {
		t.Run(tt.name, func(t *testing.T) {
			done := make(chan error, 1)
			go func() {
				_, _, err := (&Host{}).readUpload(context.Background(), tt.paths)
				done <- err
			}()
			var err error
			select {
			case err = <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("readUpload blocked")
			}
			var pe *protocol.Error
			if !errors.As(err, &pe) || pe.Code != tt.code || pe.Hint == "" {
				t.Fatalf("err = %v, want %s with a hint", err, tt.code)
			}
			for _, p := range tt.parts {
				if !strings.Contains(pe.Message+" "+pe.Hint, p) {
					t.Errorf("%q does not say %q", pe.Message, p)
				}
			}
		})
	}
}

// TestReadUploadDescribesEachFile: names, sizes, times and types as a
// file picker would give them, and the bytes.
func TestReadUploadDescribesEachFile(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{"a.PDF": "%PDF", "b.csv": "x,y\n", "c.unknownext": "?", "d.txt": ""}
	var paths []string
	for _, n := range []string{"a.PDF", "b.csv", "c.unknownext", "d.txt"} {
		p := filepath.Join(dir, n)
		if err := os.WriteFile(p, []byte(files[n]), 0o600); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	when := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	if err := os.Chtimes(paths[0], when, when); err != nil {
		t.Fatal(err)
	}
	up, _, err := (&Host{}).readUpload(context.Background(), paths)
	if err != nil {
		t.Fatal(err)
	}
	if len(up.spec.ID) != 16 {
		t.Errorf("upload id %q", up.spec.ID)
	}
	want := []protocol.UploadFile{
		{Name: "a.PDF", Type: "application/pdf", Size: 4, LastModified: when.UnixMilli()},
		{Name: "b.csv", Type: "text/csv", Size: 4},
		{Name: "c.unknownext", Type: "", Size: 1},
		{Name: "d.txt", Type: "text/plain", Size: 0},
	}
	for i, w := range want {
		got := up.spec.Files[i]
		if i > 0 {
			w.LastModified = got.LastModified
		}
		if got != w {
			t.Errorf("file %d = %+v, want %+v", i, got, w)
		}
		if string(up.data[i]) != files[w.Name] {
			t.Errorf("file %d bytes %q", i, up.data[i])
		}
	}
}

// TestDownloadCursor: a wait looks from the agent's first action on (not
// at a person's earlier downloads), and after the last download a wait
// returned.
func TestDownloadCursor(t *testing.T) {
	var c downloadCursor
	t0 := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	if since, after := c.window(t0); !since.Equal(t0) || after != 0 {
		t.Errorf("before any action: %v %d, want now and 0", since, after)
	}
	c.acted(t0.Add(time.Second))
	c.acted(t0.Add(5 * time.Second)) // a later action does not move it
	if since, _ := c.window(t0.Add(time.Minute)); !since.Equal(t0.Add(time.Second)) {
		t.Errorf("after actions: since %v, want the first action", since)
	}
	c.returned(protocol.Download{ID: 4, Started: t0.Add(3 * time.Second).Format(time.RFC3339Nano)})
	if since, after := c.window(t0.Add(time.Minute)); !since.Equal(t0.Add(3*time.Second)) || after != 4 {
		t.Errorf("after a return: %v %d, want the returned one's start and 4", since, after)
	}
	c.returned(protocol.Download{ID: 2, Started: "not a time"}) // older, and unreadable: nothing moves back
	if since, after := c.window(t0.Add(time.Minute)); !since.Equal(t0.Add(3*time.Second)) || after != 4 {
		t.Errorf("after an older return: %v %d", since, after)
	}
}

// TestDownloadFailedSaysWhy: Chrome's reason is in the message, and the
// hint fits it.
func TestDownloadFailedSaysWhy(t *testing.T) {
	for reason, hint := range map[string]string{
		"FILE_NO_SPACE":                  "free space",
		"FILE_ACCESS_DENIED":             "writable",
		"SERVER_FORBIDDEN":               "logged in",
		"NETWORK_FAILED":                 "retry",
		"SERVER_CONTENT_LENGTH_MISMATCH": "retry",
		"USER_CANCELED":                  "cancelled",
	} {
		err := downloadFailed(protocol.Download{ID: 9, Filename: "a.csv", State: protocol.DownloadInterrupted, Error: reason})
		var pe *protocol.Error
		if !errors.As(err, &pe) || pe.Code != protocol.CodeDownloadFailed || !strings.Contains(pe.Message, reason) ||
			!strings.Contains(pe.Message, "a.csv") || !strings.Contains(pe.Hint, hint) {
			t.Errorf("%s: %v, want download_failed naming it with a hint about %q", reason, err, hint)
		}
	}
}
