package release

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// The Chrome Web Store package (README, "Release archives"): on
// Windows and macOS an extension from outside the store installs only by
// enterprise policy, so the store is how most people get grip. The store
// signs the extension with a key of its own, which gives it the store's ID;
// `grip install --extension-id ID` then lets the host manifests allow it.

// StoreZipName and StoreListingName are the store package's two files:
// the extension to upload and the text to paste into the listing.
func StoreZipName(version string) string     { return "grip-" + version + "-chrome-web-store.zip" }
func StoreListingName(version string) string { return "grip-" + version + "-chrome-web-store.md" }

// permissionWhy justifies each permission extension/manifest.json asks
// for, as the store's "Privacy practices" tab wants them; StoreListing
// refuses a manifest with a permission not listed here.
var permissionWhy = map[string]string{
	"nativeMessaging": "grip's only channel: it talks to the grip program the person installed on the same computer (a native messaging host), which an AI agent on that computer uses. It connects to nothing else.",
	"scripting":       "To read the page the agent works on (its buttons, fields and text, as a list of elements) and to act on an element the agent names (click, type, select), in the tabs the person lets it use.",
	"tabs":            "To list the open tabs with their titles and addresses, open a tab for the agent, and switch between tabs, as the agent asks.",
	"webNavigation":   "To know the frames of a page and when a navigation starts and ends, so an element the agent named is found in the right frame and never acted on after its page went away.",
	"storage":         "To keep the person's settings (which sites agents may use, whether agents are paused) and the profile's grip identifier on this computer.",
	"alarms":          "To wake the service worker to keep its connection to the grip program alive.",
	"debugger":        "For what only the DevTools protocol offers: trusted input for a click or key press the page checks, screenshots, and the page's console. The browser shows its banner while grip uses it.",
	"notifications":   "To ask the person, with the site as the title, when an agent asks for something only the person may allow, or hands them a step to do themselves; a click shows the tab.",
	"downloads":       "To list and wait for the downloads an agent's action started, so the agent can tell the person where the file is.",
	"webRequest":      "To read the HTTP status of a page load an agent started (only the top-level page, only while that navigation runs), so the agent learns that a page failed to load and why.",
	"tabGroups":       "To put the tabs an agent opened in one group the person can see and close.",
	"offscreen":       "To keep the connection to the grip program open while the service worker would otherwise be stopped.",
	"<all_urls>":      "An agent works on whichever site the person asks it to; the person's own rules (grip's popup and policy file) limit the sites agents may use.",
}

// storeManifest returns manifest.json for the store: the development
// "key" removed (the store signs with its own key, and refuses a package
// that carries one), the version kept.
func storeManifest(raw []byte) ([]byte, []string, error) {
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, nil, fmt.Errorf("release: extension manifest.json: %w", err)
	}
	delete(m, "key")
	var perms []string
	for _, field := range []string{"permissions", "host_permissions", "optional_permissions"} {
		list, _ := m[field].([]any)
		for _, p := range list {
			if s, ok := p.(string); ok {
				perms = append(perms, s)
			}
		}
	}
	b, err := json.MarshalIndent(m, "", "  ")
	return append(b, '\n'), perms, err
}

// StoreZip returns the extension zip for the store from the extension's
// files (rooted at manifest.json), without the development key, in a
// fixed order with fixed times so a release is reproducible.
func StoreZip(ext fs.FS) ([]byte, []string, error) {
	var names []string
	err := fs.WalkDir(ext, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			names = append(names, p)
		}
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	slices.Sort(names)
	var perms []string
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, name := range names {
		data, err := fs.ReadFile(ext, name)
		if err != nil {
			return nil, nil, err
		}
		if name == "manifest.json" {
			if data, perms, err = storeManifest(data); err != nil {
				return nil, nil, err
			}
		}
		h := &zip.FileHeader{Name: name, Method: zip.Deflate, Modified: Epoch}
		h.SetMode(0o644)
		w, err := zw.CreateHeader(h)
		if err != nil {
			return nil, nil, err
		}
		if _, err := w.Write(data); err != nil {
			return nil, nil, err
		}
	}
	if perms == nil {
		return nil, nil, fmt.Errorf("release: the extension has no manifest.json")
	}
	if err := zw.Close(); err != nil {
		return nil, nil, err
	}
	return buf.Bytes(), perms, nil
}

// StoreListing is the text for the store's listing: the description, one
// justification per permission the manifest asks for, and the privacy
// statement. A permission without a justification is an error: add it to
// permissionWhy.
func StoreListing(version string, perms []string) (string, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "# grip %s: Chrome Web Store listing\n\n", version)
	b.WriteString("## Description\n\n" +
		"grip lets an AI agent on your own computer use your own browser, with your logins, through handles on the page's elements that keep their meaning. " +
		"It works with the grip program (https://github.com/grip-dev/grip), which you install on the same computer and which the agent talks to. " +
		"You decide which sites agents may use, can pause them from the toolbar button at any time, and see the tabs they opened in a group of their own.\n\n" +
		"After installing from the store, run `grip install --extension-id ID` with the ID this listing gives the extension, so the grip program lets it connect.\n\n")
	b.WriteString("## Permission justifications\n\n")
	for _, p := range perms {
		why, ok := permissionWhy[p]
		if !ok {
			return "", fmt.Errorf("release: no store justification for permission %q: add one to permissionWhy (internal/release/store.go)", p)
		}
		fmt.Fprintf(&b, "- **%s**: %s\n", p, why)
	}
	b.WriteString("\n## Single purpose\n\nLet an AI agent the person runs on their own computer read and operate the web pages the person allows, in the person's own browser.\n\n")
	b.WriteString("## Privacy\n\n" + PrivacyStatement + "\n")
	return b.String(), nil
}

// PrivacyStatement is the store package's privacy policy.
const PrivacyStatement = "grip collects nothing and sends nothing anywhere: nothing leaves your computer. " +
	"The extension talks only to the grip program on the same computer, over the browser's native messaging; it has no server, no analytics, no telemetry and no remote code. " +
	"What it reads from a page goes to that program, and from it to the AI agent you run on your computer; where that agent sends it is up to the agent you chose. " +
	"grip keeps its settings and logs on your computer, in its own folders, and sells or shares no data with anyone."

// WriteStorePackage writes the store's zip and listing for version into
// outDir and returns their paths.
func WriteStorePackage(ext fs.FS, version, outDir string) ([]string, error) {
	if err := checkVersion(version); err != nil {
		return nil, err
	}
	zipData, perms, err := StoreZip(ext)
	if err != nil {
		return nil, err
	}
	listing, err := StoreListing(version, perms)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return nil, err
	}
	zp, lp := filepath.Join(outDir, StoreZipName(version)), filepath.Join(outDir, StoreListingName(version))
	if err := os.WriteFile(zp, zipData, 0o644); err != nil {
		return nil, err
	}
	return []string{zp, lp}, os.WriteFile(lp, []byte(listing), 0o644)
}
