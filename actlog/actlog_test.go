package actlog

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestAddRecentAndReadBack(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "logs")
	l, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := l.Recent(Query{}); len(got) != 0 {
		t.Fatalf("new log holds %v", got)
	}
	for i := 1; i <= 5; i++ {
		e := Entry{Tab: i%2 + 1, Action: "click", Target: fmt.Sprintf("@e%d: [button 'B%d']", i, i), Outcome: "ok", Client: "cli"}
		if err := l.Add(e); err != nil {
			t.Fatal(err)
		}
	}
	tab2 := l.Recent(Query{Tab: 2, Limit: 2})
	if len(tab2) != 2 || tab2[0].Target != "@e3: [button 'B3']" || tab2[1].Target != "@e5: [button 'B5']" {
		t.Errorf("Recent(tab 2, 2) = %+v", tab2)
	}
	l.Add(Entry{Action: "pause", Outcome: "ok", Client: "cli"}) // no tab
	if n := l.CountOthers(2); n != 2 {
		t.Errorf("CountOthers(2) = %d, want tab 1's two", n)
	}
	fi, err := os.Stat(l.Path())
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("log file: %v %v", err, fi)
	}
	// A broken line (a crash mid-write) is skipped on the way back.
	f, _ := os.OpenFile(l.Path(), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"time":"2026-01-01T00:00:00Z","act` + "\n")
	f.Close()
	again, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	all := again.Recent(Query{})
	if len(all) != 6 || all[4].Target != "@e5: [button 'B5']" || all[0].Time.IsZero() {
		t.Errorf("read back %+v", all)
	}
}

func TestRotation(t *testing.T) {
	dir := t.TempDir()
	l, _ := Open(dir)
	big := strings.Repeat("x", 1000)
	n := 2*MaxFileSize/1000 + 10
	for i := 0; i < n; i++ {
		if err := l.Add(Entry{Time: time.Unix(int64(i), 0), Action: "click", Target: big, Outcome: "ok", Client: "cli"}); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{l.Path(), l.Path() + ".1"} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Size() > MaxFileSize || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: %d bytes, mode %v", p, fi.Size(), fi.Mode().Perm())
		}
	}
	if got := len(l.Recent(Query{})); got != MaxMemory {
		t.Errorf("memory holds %d entries, want %d", got, MaxMemory)
	}
	again, _ := Open(dir)
	got := again.Recent(Query{})
	if len(got) != MaxMemory || !got[len(got)-1].Time.Equal(time.Unix(int64(n-1), 0)) {
		t.Errorf("read back %d entries, last %v", len(got), got[len(got)-1].Time)
	}
}

func TestRefusesALink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "elsewhere")
	os.WriteFile(target, nil, 0o600)
	if err := os.Symlink(target, filepath.Join(dir, FileName)); err != nil {
		t.Skip(err)
	}
	l, _ := Open(dir)
	if err := l.Add(Entry{Action: "click", Outcome: "ok"}); err == nil {
		t.Error("Add wrote through a link")
	}
	if b, _ := os.ReadFile(target); len(b) != 0 {
		t.Errorf("the link's target got %q", b)
	}
	if len(l.Recent(Query{})) != 1 {
		t.Error("the entry is not kept in memory")
	}
}

// TestEntriesCannotBeForged: a target, client or detail holding a newline
// or another control character is written on its one line, escaped, and
// reads back the same; an escape cannot be faked with a backslash.
func TestEntriesCannotBeForged(t *testing.T) {
	dir := t.TempDir()
	l, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	forged := "a\n2026-05-01 12:00:03  tab 5  https://bank.example  click @e1  ok  (cli)"
	if err := l.Add(Entry{Action: "click", Target: forged, Client: "x\r\u2028y", Detail: `\n` + "\x1b[2J\u202e", Outcome: "ok"}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, FileName))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), "\n"); n != 1 {
		t.Fatalf("one entry is %d lines:\n%s", n, b)
	}
	again, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	got := again.Recent(Query{})
	if len(got) != 1 {
		t.Fatalf("%d entries read back", len(got))
	}
	e := got[0]
	if e.Target != `a\n2026-05-01 12:00:03  tab 5  https://bank.example  click @e1  ok  (cli)` || e.Client != `x\r\u2028y` || e.Detail != `\\n\x1b[2J\u202e` {
		t.Errorf("read back %q %q %q", e.Target, e.Client, e.Detail)
	}
	if l.Recent(Query{})[0] != e {
		t.Errorf("memory %+v, file %+v", l.Recent(Query{})[0], e)
	}
	if Fold(e.Target) != e.Target || Fold(e.Detail) != e.Detail {
		t.Error("Fold changes what Escape wrote")
	}
}
