package policy

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func mustWrite(tb testing.TB, path, text string) {
	tb.Helper()
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		tb.Fatal(err)
	}
}

// renameSave saves the way many editors do: a new file renamed over.
func renameSave(tb testing.TB, path, text string) {
	tb.Helper()
	tmp := path + ".swp"
	mustWrite(tb, tmp, text)
	if err := os.Rename(tmp, path); err != nil {
		tb.Fatal(err)
	}
}

func TestStoreWritesTemplateAndFollowsEdits(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", FileName)
	s := Open(path, true, nil)
	b, err := os.ReadFile(path)
	if err != nil || string(b) != Template {
		t.Fatalf("template not written: %v", err)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("policy file mode %v", fi.Mode().Perm())
	}
	if !s.Current().Trivial() || s.Status().Error != "" {
		t.Fatalf("template policy: %+v %+v", s.Current(), s.Status())
	}

	// An edit in place applies to the next Current, without waiting for
	// any watcher.
	mustWrite(t, path, "block *.bank.example\n")
	if d := s.Current().Decide("https://x.bank.example/"); d.Rule != Block {
		t.Fatalf("after an edit: %s", d.Rule)
	}
	// A rename-save too.
	renameSave(t, path, "read *.bank.example\n")
	if d := s.Current().Decide("https://x.bank.example/"); d.Rule != Read {
		t.Fatalf("after a rename-save: %s", d.Rule)
	}
	// A broken edit keeps the last good policy and says why, with the line.
	mustWrite(t, path, "read *.bank.example\nblok x.example\n")
	if d := s.Current().Decide("https://x.bank.example/"); d.Rule != Read {
		t.Fatalf("after a broken edit: %s, want the last good policy's read", d.Rule)
	}
	st := s.Status()
	if !strings.Contains(st.Error, "line 2") || !strings.Contains(st.Error, "last good policy stays in force") {
		t.Errorf("status after a broken edit: %+v", st)
	}
	// The file gone after a good read: the last good policy stays.
	os.Remove(path)
	if d := s.Current().Decide("https://x.bank.example/"); d.Rule != Read {
		t.Fatalf("after removal: %s", d.Rule)
	}
	if st := s.Status(); !st.Missing || !strings.Contains(st.Error, "is gone") {
		t.Errorf("status after removal: %+v", st)
	}
	// A fixed file clears the error.
	mustWrite(t, path, "")
	if !s.Current().Trivial() || s.Status().Error != "" {
		t.Errorf("after an empty file: %+v", s.Status())
	}
}

// A save in place truncates the file, then writes it: a call between the
// two finds the rules in force, not none, and a broken write that follows
// leaves those rules as the last good ones, not the empty file.
func TestStoreSaveInPlaceIsNotAnEmptyPolicy(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", FileName)
	s := Open(path, true, nil)
	mustWrite(t, path, "block *.bank.example\n")
	if d := s.Current().Decide("https://x.bank.example/"); d.Rule != Block {
		t.Fatalf("before the save: %s", d.Rule)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		time.Sleep(30 * time.Millisecond)
		f.WriteString("block *.bank.example\nallow everything\n")
		f.Close()
	}()
	if d := s.Current().Decide("https://x.bank.example/"); d.Rule != Block {
		t.Errorf("between the truncate and the write: %s, want the rules in force", d.Rule)
	}
	<-done
	if d := s.Current().Decide("https://x.bank.example/"); d.Rule != Block {
		t.Errorf("after a broken write: %s, want the last good rules", d.Rule)
	}
	if b, _ := os.ReadFile(LastGoodPath(path)); !strings.Contains(string(b), "block *.bank.example") {
		t.Errorf("the last good copy holds %q", b)
	}
	// An empty file that stays empty is believed, after the grace.
	mustWrite(t, path, "")
	if !s.Current().Trivial() {
		t.Errorf("an emptied file: %+v", s.Current())
	}
}

func TestStoreBrokenAtStart(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)

	// No good read ever: lockdown, never "no policy".
	mustWrite(t, path, "block *.bank.example\nnonsense\n")
	s := Open(path, true, nil)
	if d := s.Current().Decide("https://anything.example/"); d.Rule != Block {
		t.Fatalf("broken file, no good copy: %s, want block (lockdown)", d.Rule)
	}
	if !strings.Contains(s.Status().Error, "line 2") {
		t.Errorf("status: %+v", s.Status())
	}

	// A good read leaves a copy; a host started later with the file
	// broken again keeps that policy.
	mustWrite(t, path, "read *.bank.example\n")
	if d := s.Current().Decide("https://x.bank.example/"); d.Rule != Read {
		t.Fatalf("fixed: %s", d.Rule)
	}
	if fi, err := os.Stat(LastGoodPath(path)); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("no last good copy: %v", err)
	}
	mustWrite(t, path, "read *.bank.example\nbroken again\n")
	s2 := Open(path, true, nil)
	if d := s2.Current().Decide("https://x.bank.example/"); d.Rule != Read {
		t.Errorf("restart with a broken file: %s, want the last good read", d.Rule)
	}
	if d := s2.Current().Decide("https://other.example/"); d.Rule != Act {
		t.Errorf("restart with a broken file: other sites %s, want the last good policy's default", d.Rule)
	}
}

func TestStoreMissingWithoutCreate(t *testing.T) {
	s := Open(filepath.Join(t.TempDir(), FileName), false, nil)
	if !s.Current().Trivial() || !s.Status().Missing || s.Status().Error != "" {
		t.Errorf("missing file: %+v", s.Status())
	}
}

// Watch applies a saved change within a second, with no call in between.
func TestStoreWatch(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	s := Open(path, true, nil)
	changed := make(chan struct{}, 10)
	s.OnChange(func() { changed <- struct{}{} })
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go s.Watch(ctx)
	time.Sleep(100 * time.Millisecond) // the watch is set up

	for i, save := range []func(){
		func() { mustWrite(t, path, "block a.example\n") },
		func() { renameSave(t, path, "read a.example\n") },
		func() { os.Remove(path); mustWrite(t, path, "confirm a.example\n") },
	} {
		save()
		select {
		case <-changed:
		case <-time.After(time.Second):
			t.Fatalf("save %d: no reload within a second", i)
		}
	}
	s.mu.Lock()
	got := s.cur.Entries
	s.mu.Unlock()
	if len(got) != 1 || got[0].Rule != Confirm {
		t.Errorf("in force after the watched saves: %v", got)
	}
}
