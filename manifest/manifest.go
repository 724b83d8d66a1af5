// Package manifest builds grip's native messaging host manifest (the JSON
// file Chrome reads to find and start `grip`) and derives the extension's
// ID from the public key pinned in extension/manifest.json.
package manifest

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
)

// HostName is the name the extension passes to chrome.runtime.connectNative
// and the base name of the host manifest file (HostName + ".json").
const HostName = "dev.grip.host"

// FileName is the host manifest's file name in a NativeMessagingHosts folder.
const FileName = HostName + ".json"

// Description is written into the host manifest; Chrome shows it nowhere
// important, but a person reading the file learns what put it there.
const Description = "grip: lets an AI agent on this machine drive this browser (installed by `grip install`)"

// originScheme prefixes every extension origin Chrome passes to a host.
const originScheme = "chrome-extension://"

// Host is a native messaging host manifest as Chrome reads it.
type Host struct {
	Name           string   `json:"name"`
	Description    string   `json:"description"`
	Path           string   `json:"path"`
	Type           string   `json:"type"`
	AllowedOrigins []string `json:"allowed_origins"`
}

// NewHost returns grip's host manifest starting the binary at path for the
// given extensions. The path must be absolute and at least one valid ID is
// needed.
func NewHost(path string, extensionIDs ...string) (Host, error) {
	if !filepath.IsAbs(path) {
		return Host{}, fmt.Errorf("%w: %q", ErrRelativePath, path)
	}
	if len(extensionIDs) == 0 {
		return Host{}, fmt.Errorf("%w: none given", ErrBadExtensionID)
	}
	h := Host{Name: HostName, Description: Description, Path: path, Type: "stdio"}
	for _, id := range extensionIDs {
		if !ValidExtensionID(id) {
			return Host{}, fmt.Errorf("%w: %q", ErrBadExtensionID, id)
		}
		h.AllowedOrigins = append(h.AllowedOrigins, Origin(id))
	}
	return h, nil
}

// Marshal returns the manifest as indented JSON ending in a newline, the
// exact bytes install writes.
func (h Host) Marshal() ([]byte, error) {
	b, err := json.MarshalIndent(h, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// Parse reads a host manifest and checks the fields Chrome needs: a valid
// name, type stdio and a path.
func Parse(data []byte) (Host, error) {
	var h Host
	if err := json.Unmarshal(data, &h); err != nil {
		return Host{}, fmt.Errorf("manifest: host manifest is not valid JSON: %w", err)
	}
	if !ValidName(h.Name) {
		return h, fmt.Errorf("%w: %q", ErrBadName, h.Name)
	}
	if h.Type != "stdio" {
		return h, fmt.Errorf("manifest: host manifest type is %q, want \"stdio\"", h.Type)
	}
	if h.Path == "" {
		return h, fmt.Errorf("manifest: host manifest has no path")
	}
	return h, nil
}

// ExtensionID returns the ID Chrome gives the extension whose manifest.json
// is manifestJSON, derived from its public "key" (base64 of the DER
// SubjectPublicKeyInfo).
func ExtensionID(manifestJSON []byte) (string, error) {
	var m struct {
		Key string `json:"key"`
	}
	if err := json.Unmarshal(manifestJSON, &m); err != nil {
		return "", fmt.Errorf("manifest: extension manifest is not valid JSON: %w", err)
	}
	if m.Key == "" {
		return "", ErrNoKey
	}
	// Chrome tolerates whitespace and PEM-style line breaks in the key.
	key := strings.Join(strings.Fields(m.Key), "")
	der, err := base64.StdEncoding.DecodeString(key)
	if err != nil || len(der) == 0 {
		return "", fmt.Errorf("%w: %v", ErrBadKey, err)
	}
	return IDFromKey(der), nil
}

// IDFromKey returns the extension ID for a DER public key: the first 16
// bytes of its SHA-256, each hex digit 0-f written as a letter a-p.
func IDFromKey(der []byte) string {
	sum := sha256.Sum256(der)
	h := []byte(hex.EncodeToString(sum[:16]))
	for i, c := range h {
		if c <= '9' {
			h[i] = 'a' + (c - '0')
		} else {
			h[i] = 'a' + 10 + (c - 'a')
		}
	}
	return string(h)
}

// ValidName reports whether name is a native messaging host name Chrome
// accepts: lowercase ASCII letters, digits, '_' and '.', not starting or
// ending with a dot, and no dot followed by another.
func ValidName(name string) bool {
	if name == "" || name[0] == '.' || name[len(name)-1] == '.' || strings.Contains(name, "..") {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

// ValidExtensionID reports whether id is 32 letters from a to p.
func ValidExtensionID(id string) bool {
	if len(id) != 32 {
		return false
	}
	for i := 0; i < len(id); i++ {
		if id[i] < 'a' || id[i] > 'p' {
			return false
		}
	}
	return true
}

// Origin returns the origin Chrome uses for extension id:
// "chrome-extension://ID/".
func Origin(id string) string { return originScheme + id + "/" }

// ParseOrigin returns the extension ID in arg, an origin of the form
// "chrome-extension://ID/" as Chrome passes it to a host it starts. The
// trailing slash may be missing.
func ParseOrigin(arg string) (id string, err error) {
	rest, ok := strings.CutPrefix(arg, originScheme)
	if !ok {
		return "", fmt.Errorf("%w: %q does not start with %s", ErrBadOrigin, arg, originScheme)
	}
	id = strings.TrimSuffix(rest, "/")
	if !ValidExtensionID(id) {
		return "", fmt.Errorf("%w: %q: the ID must be 32 letters a-p", ErrBadOrigin, arg)
	}
	return id, nil
}

// AllowedOrigin returns nil when origin names an extension in allowed, whose
// entries are origins ("chrome-extension://ID/") or bare IDs. Otherwise the
// error names the origin and what is allowed, so a host can refuse a caller
// it was not installed for.
func AllowedOrigin(origin string, allowed []string) error {
	id, err := ParseOrigin(origin)
	if err != nil {
		return err
	}
	for _, a := range allowed {
		want := a
		if !ValidExtensionID(a) {
			if want, err = ParseOrigin(a); err != nil {
				continue
			}
		}
		if want == id {
			return nil
		}
	}
	list := "nothing"
	if len(allowed) > 0 {
		list = strings.Join(allowed, ", ")
	}
	return fmt.Errorf("%w: %s is not allowed to start this host (allowed: %s); reinstall with `grip install` or load the grip extension", ErrOriginNotAllowed, origin, list)
}
