package policy

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
	"github.com/grip-dev/grip/internal/atomicfile"
)

// FileName is the policy file's name in grip's state dir.
const FileName = "policy.conf"

// Path returns the policy file under grip's state root.
func Path(stateRoot string) string { return filepath.Join(stateRoot, FileName) }

// Template is what a new policy file holds: every rule commented out, so
// it changes nothing until the person writes one.
const Template = `# grip policy: what AI agents may do in this browser.
#
# One rule a line:  RULE PATTERN [PATTERN…]
#   block    agents neither read nor act there; its tabs show only as "blocked"
#   read     agents may read (snapshots); every action is refused
#   confirm  each action waits until you click Allow in the browser
#   act      agents may read and act
#   script   agents may also run code in its pages (grip eval): anything the
#            page itself can do. No site has it unless you name it here.
# A PATTERN is an origin, never a path: https://mail.example.com,
# *.bank.example (that site and every subdomain), localhost:8080, or *
# (every site). Without a scheme it matches every scheme, without a port
# every port. The most specific pattern wins (a host beats *.host, which
# beats *); between equally specific ones, the stricter rule.
# Extension pages (grip's popup, password managers, wallets) are always blocked.
#
# Settings (KEY = VALUE):
#   default = act           the rule of every site no pattern names
#   tabs = all              or shared: agents see only the tabs you share from
#                           the grip popup ("Let agents use this tab") and the
#                           tabs they opened themselves
#   confirm-timeout = 60s   how long a confirm rule waits for your answer
#   upload-from = ~/Downloads, /tmp
#                           the folders agents may upload files from (this is
#                           the default: Downloads and the temp folder). Hidden
#                           folders of your home (~/.ssh, ~/.aws…), grip's own
#                           folder, /proc and /etc stay closed unless named here.
#   Local files (file://) are closed to agents unless a rule names file://.
#
# Saved changes apply within a second. If an edit does not read well, grip
# keeps the last good policy and says what is wrong in grip doctor and the
# popup. This guards against an agent's mistakes and against pages that try
# to talk it into things; it cannot stop a program running as you, which can
# edit this file.
#
# Examples (remove the # to use them):
# block   *.bank.example
# read    https://mail.example.com
# confirm https://admin.example.com
# script  http://localhost:3000
`

// LastGoodPath is where the host keeps a copy of the last policy that
// read well, so that a file broken while no host ran still leaves that
// policy in force at the next start.
func LastGoodPath(path string) string {
	return filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".last-good")
}

// Lockdown is the policy in force when the file does not parse and no
// good read of it is known: every site blocked.
func Lockdown() *Policy {
	p := Default()
	p.DefaultRule = Block
	return p
}

// Status is what the host reports about its policy: which file, when it
// was last read well, and why the latest read failed, if it did.
type Status struct {
	File string `json:"file"`
	// Loaded is when the policy in force was read (RFC 3339).
	Loaded string `json:"loaded,omitempty"`
	// Error says why the file as it is now is not in force; the last
	// good policy (or the default, if none ever read well) stays.
	Error string `json:"error,omitempty"`
	// Missing: there is no file, so the default policy is in force.
	Missing bool `json:"missing,omitempty"`
}

// Store is the policy in force: read from a file, reloaded when the file
// changes (Watch), and checked again on every Current, so a saved change
// applies to the very next call. A file that does not parse, or goes
// missing after a good read, leaves the last good policy in force: a
// typo never means "no policy".
type Store struct {
	path string
	log  *slog.Logger

	mu       sync.Mutex
	cur      *Policy     // guarded by mu; never nil
	loaded   time.Time   // guarded by mu; when cur was read
	err      error       // guarded by mu; the latest read's failure
	missing  bool        // guarded by mu
	stamp    fs.FileInfo // guarded by mu; the file as last read, nil when absent
	good     bool        // guarded by mu; some read of the file has succeeded
	create   bool        // keep a copy of every good read (LastGoodPath)
	onChange []func()    // guarded by mu
}

// Open reads the policy at path. A missing file is the default policy
// (and, with create, a commented template is written there for the
// person to edit). A file that does not parse leaves in force the last
// policy that read well, kept beside it (LastGoodPath) from an earlier
// run; with none, every site is blocked until the file reads well
// (Lockdown): a typo must not open the browser to agents.
func Open(path string, create bool, log *slog.Logger) *Store {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &Store{path: path, log: log, cur: Default(), loaded: time.Now(), create: create}
	if b, err := os.ReadFile(LastGoodPath(path)); err == nil {
		if p, err := Parse(b); err == nil {
			s.cur = p
		}
	} else if _, err := os.Stat(path); err == nil {
		// A file with no good copy beside it: if it does not parse,
		// nothing better than lockdown is known.
		s.cur = Lockdown()
	}
	if create {
		if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
			if err := os.MkdirAll(filepath.Dir(path), 0o700); err == nil {
				if err := atomicfile.WriteFile(path, []byte(Template), 0o600); err != nil {
					log.Warn("policy: could not write the template", "path", path, "err", err)
				}
			}
		}
	}
	s.mu.Lock()
	s.reloadLocked()
	s.mu.Unlock()
	return s
}

// File is the policy file's path.
func (s *Store) File() string { return s.path }

// OnChange registers f to run (in its own goroutine) after every reload
// that changed the policy in force or its status.
func (s *Store) OnChange(f func()) {
	s.mu.Lock()
	s.onChange = append(s.onChange, f)
	s.mu.Unlock()
}

// Current returns the policy in force, first re-reading the file if it
// changed since the last read (one stat).
func (s *Store) Current() *Policy {
	s.mu.Lock()
	changed := s.checkLocked()
	p := s.cur
	fns := s.onChange
	s.mu.Unlock()
	if changed {
		for _, f := range fns {
			go f()
		}
	}
	return p
}

// Status reports the file, the time of the read in force, and the latest
// read's failure.
func (s *Store) Status() Status {
	s.Current()
	s.mu.Lock()
	defer s.mu.Unlock()
	st := Status{File: s.path, Missing: s.missing, Loaded: s.loaded.UTC().Format(time.RFC3339)}
	if s.err != nil {
		st.Error = s.err.Error()
	}
	return st
}

// checkLocked re-reads the file when a stat says it is not the one last
// read, and reports whether anything changed.
func (s *Store) checkLocked() bool {
	fi, err := os.Stat(s.path)
	if err != nil {
		fi = nil
	}
	if sameStamp(s.stamp, fi) {
		return false
	}
	return s.reloadLocked()
}

func sameStamp(a, b fs.FileInfo) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return os.SameFile(a, b) && a.Size() == b.Size() && a.ModTime().Equal(b.ModTime()) && a.Mode() == b.Mode()
}

// reloadLocked reads the file and, when it parses, puts it in force. It
// reports whether the policy or the status changed.
func (s *Store) reloadLocked() bool {
	prevErr, prevMissing := errText(s.err), s.missing
	f, err := os.Open(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		s.stamp = nil
		s.missing = true
		if s.good {
			// Gone after a good read: an editor between its remove and
			// its create, or the person deleting it. Either way the
			// rules they wrote stay until a new file reads well.
			s.err = fmt.Errorf("%s is gone; the last policy read stays in force (save an empty file to drop every rule)", s.path)
			return errText(s.err) != prevErr || s.missing != prevMissing
		}
		// No file before any good read: there are no rules to keep.
		s.cur, s.err = Default(), nil
		return prevErr != "" || s.missing != prevMissing
	}
	s.missing = false
	if err != nil {
		s.stamp = nil
		s.err = fmt.Errorf("cannot read %s: %w; the last good policy stays in force", s.path, err)
		return errText(s.err) != prevErr
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		s.err = fmt.Errorf("cannot read %s: %w; the last good policy stays in force", s.path, err)
		return errText(s.err) != prevErr
	}
	s.stamp = fi
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		s.err = fmt.Errorf("cannot read %s: %w; the last good policy stays in force", s.path, err)
		return errText(s.err) != prevErr
	}
	if len(bytes.TrimSpace(data)) == 0 && s.good && len(s.cur.Entries) > 0 && s.settlesLocked(fi) {
		// It changed while we waited: an editor's save in place, caught
		// between its truncate and its write. Read what it wrote.
		return s.reloadLocked() || errText(s.err) != prevErr
	}
	p, err := Parse(data)
	if err != nil {
		s.err = fmt.Errorf("%s: %w; the last good policy stays in force", s.path, err)
		s.log.Error("policy: " + s.err.Error())
		return errText(s.err) != prevErr
	}
	s.cur, s.err, s.good, s.loaded = p, nil, true, time.Now()
	if s.create {
		if err := atomicfile.WriteFile(LastGoodPath(s.path), data, 0o600); err != nil {
			s.log.Warn("policy: could not keep a copy of the good policy", "err", err)
		}
	}
	s.log.Info("policy: in force", "path", s.path, "rules", len(p.Entries), "default", p.DefaultRule.String(), "tabs", string(p.Tabs))
	return true
}

// emptiedGrace is how long a file emptied under rules in force is watched
// before the empty policy is believed: a save in place truncates the file
// and then writes it, and a call between the two must not find every rule
// dropped (nor keep the empty file as the last good policy).
const emptiedGrace = 100 * time.Millisecond

// settlesLocked watches the file read as fi for emptiedGrace and reports
// whether it changed in that time. The store's lock is held: every call
// waits for the verdict, as none may act under rules half-saved.
func (s *Store) settlesLocked(fi fs.FileInfo) bool {
	for deadline := time.Now().Add(emptiedGrace); time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
		now, err := os.Stat(s.path)
		if err != nil || !sameStamp(fi, now) {
			return true
		}
	}
	return false
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// debounce is how long Watch waits after the file's last event before it
// reads it: editors save in several steps (write a temp file, rename it
// over, or remove and create).
const debounce = 50 * time.Millisecond

// Watch reloads the policy whenever the file changes, until ctx ends. It
// watches the folder, not the file: editors that save by renaming a new
// file over the old one replace the inode a file watch would follow. If
// the watch cannot be set up, it falls back to a stat every second.
func (s *Store) Watch(ctx context.Context) {
	w, err := fsnotify.NewWatcher()
	if err == nil {
		if err = w.Add(filepath.Dir(s.path)); err != nil {
			w.Close()
		}
	}
	if err != nil {
		s.log.Warn("policy: cannot watch the folder; checking every second instead", "err", err)
		s.poll(ctx)
		return
	}
	defer w.Close()
	name := filepath.Base(s.path)
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-w.Events:
			if !ok {
				return
			}
			if filepath.Base(ev.Name) == name {
				timer.Reset(debounce)
			}
		case err, ok := <-w.Errors:
			if !ok {
				return
			}
			s.log.Warn("policy: watch error; checking now", "err", err)
			timer.Reset(debounce)
		case <-timer.C:
			s.Current()
		}
	}
}

func (s *Store) poll(ctx context.Context) {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			s.Current()
		}
	}
}
