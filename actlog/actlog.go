// Package actlog is the record of what agents did in the person's
// browser: one entry per action an agent asked for — when, on which tab
// and origin, which verb, the target's line as the agent last saw it,
// the outcome and which client asked. It never holds typed text, option
// values or other secret values: entries are built from the verb, the
// host's view of the element without its value, and error codes.
//
// Entries are kept in memory (the latest MaxMemory) and appended to a
// JSON-lines file, 0600, that is rotated once it passes MaxFileSize (one
// older file kept), so the record survives a host restart and stays
// bounded on disk.
package actlog

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// FileName is the log's name in grip's logs folder.
const FileName = "agent-actions.jsonl"

// Bounds of the record.
const (
	MaxFileSize = 1 << 20 // the file is rotated past this size
	MaxMemory   = 1000    // entries kept in memory, and read back at start
)

// Entry is one action an agent asked for.
type Entry struct {
	Time time.Time `json:"time"`
	Tab  int       `json:"tab,omitempty"`
	// Origin is the page's origin (scheme://host[:port]), never its path
	// or query, which can carry tokens.
	Origin string `json:"origin,omitempty"`
	Action string `json:"action"`
	// Target is the element's line as the agent last saw it, without its
	// value ("@e3: [button 'Delete']"), or the locator it gave.
	Target string `json:"target,omitempty"`
	// Detail adds what is safe to say about the rest: a named key
	// ("Enter"), the URL a navigation went to (its secret-named query
	// values masked, no fragment), a tab id.
	Detail string `json:"detail,omitempty"`
	// Outcome is "ok", or the error code that refused or failed it.
	Outcome string `json:"outcome"`
	// Rule names the policy rule that refused it or asked the person.
	Rule string `json:"rule,omitempty"`
	// Confirmed is set when the person allowed it in the browser.
	Confirmed bool `json:"confirmed,omitempty"`
	// Client is who asked: "cli", or the MCP client's name.
	Client string `json:"client"`
	// Session is the session that asked (grip --session, one per grip
	// mcp process); empty in records written before sessions.
	Session string `json:"session,omitempty"`
}

// Log is the record: in memory and in a file. It is safe for concurrent
// use. A Log whose file cannot be written keeps recording in memory and
// reports the write error from Add.
type Log struct {
	path string

	mu      sync.Mutex
	entries []Entry // guarded by mu; oldest first, at most MaxMemory
}

// Open reads back the latest entries of the log in dir (the rotated file
// first, then the current one) and returns a Log that appends there. A
// missing file is an empty log; lines that do not decode are skipped.
func Open(dir string) (*Log, error) {
	l := &Log{path: filepath.Join(dir, FileName)}
	for _, p := range []string{l.path + ".1", l.path} {
		if err := l.readBack(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return l, err
		}
	}
	return l, nil
}

// Path is the log file.
func (l *Log) Path() string { return l.path }

func (l *Log) readBack(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(io.LimitReader(f, 2*MaxFileSize))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		var e Entry
		if json.Unmarshal(sc.Bytes(), &e) == nil && e.Action != "" {
			l.entries = append(l.entries, escaped(e, Fold))
		}
	}
	if n := len(l.entries); n > MaxMemory {
		l.entries = append([]Entry(nil), l.entries[n-MaxMemory:]...)
	}
	return sc.Err()
}

// Add records e in memory and appends it to the file, rotating the file
// first when it has grown past MaxFileSize.
func (l *Log) Add(e Entry) error {
	if e.Time.IsZero() {
		e.Time = time.Now()
	}
	e.Time = e.Time.UTC().Truncate(time.Millisecond)
	e = escaped(e, Escape) // one entry, one line, whatever an agent or a page wrote
	line, err := json.Marshal(e)
	if err != nil {
		return err
	}
	line = append(line, '\n')
	l.mu.Lock()
	defer l.mu.Unlock()
	l.entries = append(l.entries, e)
	if n := len(l.entries); n > MaxMemory {
		l.entries = append(l.entries[:0:0], l.entries[n-MaxMemory:]...)
	}
	return l.appendLocked(line)
}

func (l *Log) appendLocked(line []byte) error {
	if err := os.MkdirAll(filepath.Dir(l.path), 0o700); err != nil {
		return err
	}
	if fi, err := os.Lstat(l.path); err == nil {
		if !fi.Mode().IsRegular() {
			return errors.New("actlog: " + l.path + " is not a regular file; not writing through it")
		}
		if fi.Size()+int64(len(line)) > MaxFileSize {
			if err := os.Rename(l.path, l.path+".1"); err != nil {
				return err
			}
		}
	}
	f, err := os.OpenFile(l.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|noFollow, 0o600)
	if err != nil {
		return err
	}
	// A file made by someone else's umask, or earlier, is tightened.
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		return err
	}
	if _, err := f.Write(line); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// Query selects entries.
type Query struct {
	Tab   int // 0: every tab
	Limit int // the latest Limit entries; 0: every one kept
	// Session, when set, keeps only that session's entries: what an agent
	// is shown of the record (the person sees every session's).
	Session string
}

// Recent returns the entries q selects, oldest first.
func (l *Log) Recent(q Query) []Entry {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []Entry
	for i := len(l.entries) - 1; i >= 0; i-- {
		if q.Tab != 0 && l.entries[i].Tab != q.Tab || q.Session != "" && l.entries[i].Session != q.Session {
			continue
		}
		out = append(out, l.entries[i])
		if q.Limit > 0 && len(out) == q.Limit {
			break
		}
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	if out == nil {
		out = []Entry{}
	}
	return out
}

// CountOthers counts the entries kept in memory for tabs other than tab
// (entries of no tab, such as a pause, are not counted).
func (l *Log) CountOthers(tab int) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, e := range l.entries {
		if e.Tab != tab && e.Tab != 0 {
			n++
		}
	}
	return n
}
