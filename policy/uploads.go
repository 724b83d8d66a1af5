package policy

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// Uploads send local files to a site, so the policy also says which
// files may leave the machine that way (docs/files.md, "Files in
// and out"): the setting
//
//	upload-from = ~/Downloads, /srv/share
//
// names the folders agents may upload from (default: ~/Downloads and the
// system temp folder). Inside them, the places where a person keeps
// secrets — the hidden folders and files of the home folder (~/.ssh,
// ~/.aws, ~/.netrc…), grip's own state folder, /proc, /sys, /dev and
// /etc — are still refused unless an upload-from folder is at or inside
// them: `upload-from = ~` does not open ~/.ssh, `upload-from = ~/.ssh`
// does. So are, wherever they lie (a copy under /tmp or ~/Downloads
// included), a browser's profile (Local State; Preferences beside Cookies
// or Login Data; prefs.js beside cookies.sqlite…) and a credential store (.ssh, .aws,
// .config/gcloud, .azure, .kube, .gnupg, .docker, keyrings, Kerberos
// caches krb5cc_*, .netrc, .pgpass, private keys…): secrets.go. Paths are
// judged resolved, links followed, so a link cannot smuggle a file out of
// the folders named.

// UploadFromKey is the setting's name in the file.
const UploadFromKey = "upload-from"

// Machine is what judging a local file needs to know of this machine.
type Machine struct {
	Home  string // the user's home folder ("" when unknown)
	Temp  string // the system temp folder
	State string // grip's state folder
	// Profile is the browser's own profile folder, when grip knows it (a
	// browser grip launch started): its cookies, and the launcher's resume
	// token, are kept closed like the state folder.
	Profile string
}

// ThisMachine is the machine grip runs on, with grip's state folder at
// state.
func ThisMachine(state string) Machine {
	home, _ := os.UserHomeDir()
	return Machine{Home: home, Temp: os.TempDir(), State: state}
}

// setUploadFrom reads the value of an upload-from line: folders
// separated by commas, each absolute or starting with ~/.
func (p *Policy) setUploadFrom(val string) error {
	var dirs []string
	for _, d := range strings.Split(val, ",") {
		d = strings.TrimSpace(d)
		if d == "" {
			continue
		}
		if !(d == "~" || strings.HasPrefix(d, "~/") || filepath.IsAbs(d)) {
			return fmt.Errorf("upload-from: %q is not a folder grip can find: give absolute folders (or ~/…) separated by commas", d)
		}
		dirs = append(dirs, d)
	}
	if len(dirs) == 0 {
		return fmt.Errorf("upload-from names no folder: give folders such as ~/Downloads, /srv/share, separated by commas")
	}
	p.UploadFrom = dirs
	return nil
}

// uploadFrom is the setting as written, or the default.
func (p *Policy) uploadFrom() []string {
	if len(p.UploadFrom) > 0 {
		return p.UploadFrom
	}
	return []string{"~/Downloads", "$TMPDIR"}
}

// UploadDirs are the folders agents may upload from, ~ and the temp
// folder filled in, each resolved (links followed) as the files judged
// against them are.
func (p *Policy) UploadDirs(m Machine) []string {
	var out []string
	for _, d := range p.uploadFrom() {
		if d = expandDir(d, m); d != "" {
			out = append(out, resolveDir(d))
		}
	}
	return out
}

// FormatUploadFrom writes the setting as a line of the file, the way
// Format prints it.
func (p *Policy) FormatUploadFrom(m Machine) string {
	dirs := p.uploadFrom()
	shown := make([]string, len(dirs))
	for i, d := range dirs {
		shown[i] = d
		if d == "$TMPDIR" {
			shown[i] = m.Temp
		}
	}
	return UploadFromKey + " = " + strings.Join(shown, ", ")
}

func expandDir(d string, m Machine) string {
	switch {
	case d == "$TMPDIR":
		return m.Temp
	case d == "~" || strings.HasPrefix(d, "~/"):
		if m.Home == "" {
			return ""
		}
		return filepath.Join(m.Home, strings.TrimPrefix(d, "~"))
	}
	return filepath.Clean(d)
}

func resolveDir(d string) string {
	if r, err := filepath.EvalSymlinks(d); err == nil {
		return r
	}
	return filepath.Clean(d)
}

// UploadRefusal says why a file may not be uploaded, and the line the
// person would write to allow it.
type UploadRefusal struct {
	Path string // the file, resolved
	// Why is the reason in words: outside every upload-from folder, or
	// in a place kept closed ("~/.ssh, a hidden folder of the home
	// folder").
	Why string
	// Line is the upload-from line that would allow the file (its
	// folder added), and Setting the line in force now.
	Line, Setting string
}

func (r *UploadRefusal) Error() string { return r.Path + ": " + r.Why }

// JudgeUpload decides whether the file at resolved — an absolute path
// with every link resolved — may be uploaded: nil, or an *UploadRefusal.
func (p *Policy) JudgeUpload(resolved string, m Machine) *UploadRefusal {
	resolved = filepath.Clean(resolved)
	closed := closedPlaces(resolved, m)
	for _, d := range p.UploadDirs(m) {
		if !within(resolved, d) {
			continue
		}
		ok := true
		for _, c := range closed {
			if !c.openedBy(d, closed) {
				ok = false
			}
		}
		if ok {
			return nil
		}
	}
	r := &UploadRefusal{Path: resolved, Setting: p.FormatUploadFrom(m)}
	dir := filepath.Dir(resolved)
	if len(closed) > 0 {
		r.Why = "it is in " + closed[0].name + ", which agents may upload from only if upload-from names it"
		dir = closed[0].dir
		if within(filepath.Dir(resolved), dir) {
			dir = filepath.Dir(resolved)
		}
	} else {
		r.Why = "it is in none of the folders agents may upload from (" + strings.Join(p.uploadFromShown(m), ", ") + ")"
	}
	r.Line = r.Setting + ", " + dir
	return r
}

func (p *Policy) uploadFromShown(m Machine) []string {
	s := strings.TrimPrefix(p.FormatUploadFrom(m), UploadFromKey+" = ")
	return strings.Split(s, ", ")
}

// closedPlace is a place where secrets are kept: a folder, or a file
// (file: a private key, a Kerberos cache).
type closedPlace struct {
	dir, name string
	file      bool
}

// openedBy reports whether the upload-from folder d opens c: d is at or
// inside it; or c is a file and d a folder holding it that lies inside
// another closed folder (upload-from = ~/.ssh opens ~/.ssh/id_rsa, while
// the temp folder does not open a Kerberos cache in it).
func (c closedPlace) openedBy(d string, all []closedPlace) bool {
	if within(d, c.dir) {
		return true
	}
	if !c.file || !within(c.dir, d) {
		return false
	}
	for _, o := range all {
		if !o.file && within(d, o.dir) {
			return true
		}
	}
	return false
}

// closedPlaces are the places kept closed that path is in.
func closedPlaces(path string, m Machine) []closedPlace {
	var out []closedPlace
	if m.Home != "" {
		home := resolveDir(m.Home)
		if rel, err := filepath.Rel(home, path); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
			first := strings.Split(rel, string(filepath.Separator))[0]
			if strings.HasPrefix(first, ".") {
				out = append(out, closedPlace{dir: filepath.Join(home, first), name: "~/" + first + ", a hidden folder or file of the home folder"})
			}
		}
	}
	if m.State != "" {
		if st := resolveDir(m.State); within(path, st) {
			out = append(out, closedPlace{dir: st, name: st + ", grip's own state folder"})
		}
	}
	if m.Profile != "" {
		if pd := resolveDir(m.Profile); within(path, pd) {
			out = append(out, closedPlace{dir: pd, name: pd + ", the browser's own profile folder"})
		}
	}
	out = append(out, secretPlaces(path)...) // policy/secrets.go
	if runtime.GOOS != "windows" {
		for _, sys := range []string{"/proc", "/sys", "/dev", "/etc"} {
			if d := resolveDir(sys); within(path, d) {
				out = append(out, closedPlace{dir: d, name: sys + ", the system's own files"})
			}
		}
	}
	return out
}

// within reports whether path is dir or inside it.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
