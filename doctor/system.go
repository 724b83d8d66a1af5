package doctor

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/grip-dev/grip/crx"
	"github.com/grip-dev/grip/install"
	"github.com/grip-dev/grip/manifest"
)

// systemState is what checkSystem found.
type systemState struct {
	checks []Check
	// id is the packed extension's ID when the system-wide install is
	// sound, else "".
	id string
	// browsers are those the system-wide install serves, each checked.
	browsers map[string]bool
}

// unverifiedSystem are browsers whose system-wide host manifest folder
// grip could not check against the browser's source or docs.
var unverifiedSystem = map[string]bool{"brave": true, "vivaldi": true}

// checkSystem checks a `grip install --system` (Linux), if there is one:
// the packed extension, the receipt the host trusts, and for each browser
// the external-extension listing and the system-wide host manifest.
func checkSystem(env Env) systemState {
	st := systemState{browsers: map[string]bool{}}
	if env.GOOS != "linux" {
		return st
	}
	rec, ok, err := install.ReadSystemReceipt(env.SystemRoot)
	fix := "run `sudo grip install --system` again"
	if err != nil {
		st.checks = append(st.checks, Check{Name: "system-wide install", Detail: err.Error(), Fix: "move the receipt aside and " + fix})
		return st
	}
	if !ok {
		return st
	}
	c := Check{Name: "system-wide install"}
	byKind := func(kind, browser string) string {
		for _, f := range rec.Files {
			if f.Kind == kind && f.Browser == browser {
				return f.Path
			}
		}
		return ""
	}
	crxPath := byKind(install.KindCRX, "")
	data, err := os.ReadFile(crxPath)
	if err != nil {
		c.Detail, c.Fix = fmt.Sprintf("the packed extension is missing: %v", err), fix
		st.checks = append(st.checks, c)
		return st
	}
	file, err := crx.Verify(data)
	switch {
	case err != nil:
		c.Detail, c.Fix = fmt.Sprintf("%s: %v", crxPath, err), fix
	case file.ID != rec.ExtensionID:
		c.Detail, c.Fix = fmt.Sprintf("%s is extension %s, the receipt says %s", crxPath, file.ID, rec.ExtensionID), fix
	case install.SystemExtensionID(env.SystemRoot) != rec.ExtensionID:
		receipt := install.SystemPath(env.SystemRoot, install.SystemDir)
		c.Detail = fmt.Sprintf("the receipt in %s is not root's alone (owned by root, writable by no one else), so the host will not let extension %s start it", receipt, rec.ExtensionID)
		c.Fix = "sudo chown root:root " + receipt + " " + receipt + "/" + install.SystemReceiptFile + " && sudo chmod go-w " + receipt + " " + receipt + "/" + install.SystemReceiptFile
	default:
		c.OK = true
		c.Detail = fmt.Sprintf("extension %s, version %s, packed at %s (chrome://extensions shows it as \"Not from Chrome Web Store\")", rec.ExtensionID, rec.ExtensionVersion, crxPath)
	}
	st.checks = append(st.checks, c)
	if !c.OK {
		return st
	}
	st.id = rec.ExtensionID

	for _, b := range install.Browsers {
		ext := byKind(install.KindExternalExtension, b)
		if ext == "" {
			continue
		}
		bc := Check{Name: install.DisplayName(b) + " system-wide"}
		if why := checkListing(ext, crxPath, rec.ExtensionVersion); why != "" {
			bc.Detail, bc.Fix = why, fix
			st.checks = append(st.checks, bc)
			continue
		}
		mf := byKind(install.KindHostManifest, b)
		// The system-wide manifest allows the packed extension alone
		// (install.InstallSystem); the unpacked one needs the user's own.
		if why := checkSystemHost(mf, rec.ExtensionID); why != "" {
			bc.Detail, bc.Fix = why, fix
			st.checks = append(st.checks, bc)
			continue
		}
		bc.OK = true
		bc.Detail = ext + " lists the packed extension; " + mf + " lets it start grip"
		if unverifiedSystem[b] {
			bc.Warn = true
			bc.Detail += fmt.Sprintf("; grip could not verify that %s reads system-wide host manifests from there", install.DisplayName(b))
			bc.Fix = "if " + install.DisplayName(b) + " does not connect, run `grip install --browser " + b + "` as yourself"
		}
		st.browsers[b] = true
		st.checks = append(st.checks, bc)
	}
	return st
}

// checkListing says what is wrong with an external-extension file, or "".
func checkListing(p, crxPath, version string) string {
	data, err := os.ReadFile(p)
	if err != nil {
		return fmt.Sprintf("the browser's listing of the extension is missing: %v", err)
	}
	var l struct {
		CRX     string `json:"external_crx"`
		Version string `json:"external_version"`
	}
	if err := json.Unmarshal(data, &l); err != nil {
		return fmt.Sprintf("%s is not valid JSON: %v", p, err)
	}
	if l.CRX != crxPath || l.Version != version {
		return fmt.Sprintf("%s lists %s version %s, not %s version %s", p, l.CRX, l.Version, crxPath, version)
	}
	return ""
}

// checkSystemHost says what is wrong with a system-wide host manifest that
// must start grip for the extensions ids, or "".
func checkSystemHost(p string, ids ...string) string {
	if p == "" {
		return "no system-wide host manifest was written"
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return fmt.Sprintf("the system-wide host manifest is missing: %v", err)
	}
	h, err := manifest.Parse(data)
	if err != nil {
		return fmt.Sprintf("%s: %v", p, err)
	}
	if h.Name != manifest.HostName {
		return fmt.Sprintf("%s names host %q", p, h.Name)
	}
	if why := notExecutable("linux", h.Path); why != "" {
		return fmt.Sprintf("%s starts %s, which %s", p, h.Path, why)
	}
	for _, id := range ids {
		if id == "" {
			continue
		}
		if err := manifest.AllowedOrigin(manifest.Origin(id), h.AllowedOrigins); err != nil {
			return fmt.Sprintf("%s allows %s, not extension %s", p, strings.Join(h.AllowedOrigins, ", "), id)
		}
	}
	return ""
}
