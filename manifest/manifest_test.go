package manifest

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// chromeTestKey is the key Chromium's own tests and the native messaging
// sample pin (chrome/browser/extensions/api/messaging/native_messaging_apitest
// and friends), with its documented ID knldjmfmopnpolahpmmgbagdohdnhkik.
const chromeTestKey = "MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQDcBHwzDvyBQ6bDppkIs9MP4ksKqCMyXQ/A52JivHZKh4YO/9vJsT3oaYhSpDCE9RPocOEQvwsHsFReW2nUEc6OLLyoCFFxIb7KkLGsmfakkut/fFdNJYh0xOTbSN8YvLWcqph09XAY2Y/f0AL7vfO1cuCqtkMt8hFrBGWxDdf9CQIDAQAB"

func TestExtensionIDKnownPairs(t *testing.T) {
	grip, err := os.ReadFile(filepath.Join("..", "extension", "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		json []byte
		want string
	}{
		{"chromium test key", []byte(`{"key":"` + chromeTestKey + `"}`), "knldjmfmopnpolahpmmgbagdohdnhkik"},
		{"grip extension", grip, "ljbpbjbogilfhbhbmmbpnncpndikkoic"},
		{"key with line breaks", []byte(`{"key":"` + chromeTestKey[:40] + `\n ` + chromeTestKey[40:] + `"}`), "knldjmfmopnpolahpmmgbagdohdnhkik"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ExtensionID(tt.json)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("ExtensionID = %s, want %s", got, tt.want)
			}
		})
	}
}

func TestExtensionIDErrors(t *testing.T) {
	tests := []struct {
		name string
		json string
		want error
	}{
		{"no key", `{"name":"x"}`, ErrNoKey},
		{"bad base64", `{"key":"!!!"}`, ErrBadKey},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := ExtensionID([]byte(tt.json)); !errors.Is(err, tt.want) {
				t.Errorf("err = %v, want %v", err, tt.want)
			}
		})
	}
	if _, err := ExtensionID([]byte(`not json`)); err == nil {
		t.Error("want an error for invalid JSON")
	}
}

// TestExtensionIDGeneratedKey checks the mapping independently of the
// implementation: hex digit d becomes the letter 'a'+d.
func TestExtensionIDGeneratedKey(t *testing.T) {
	priv, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKIXPublicKey(&priv.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(der)
	var want strings.Builder
	for _, c := range fmt.Sprintf("%x", sum)[:32] {
		var d int
		fmt.Sscanf(string(c), "%x", &d)
		want.WriteByte(byte('a' + d))
	}
	js, _ := json.Marshal(map[string]string{"key": base64.StdEncoding.EncodeToString(der)})
	got, err := ExtensionID(js)
	if err != nil {
		t.Fatal(err)
	}
	if got != want.String() {
		t.Errorf("ExtensionID = %s, want %s", got, want.String())
	}
	if !ValidExtensionID(got) {
		t.Errorf("%s is not a valid ID", got)
	}
}

func TestValidName(t *testing.T) {
	tests := []struct {
		name string
		ok   bool
	}{
		{HostName, true},
		{"com.my_company.my_application", true},
		{"a", true},
		{"a1_b.c2", true},
		{"", false},
		{".a", false},
		{"a.", false},
		{"a..b", false},
		{"Dev.grip.host", false},
		{"dev-grip", false},
		{"dev grip", false},
		{"dev/grip", false},
	}
	for _, tt := range tests {
		if got := ValidName(tt.name); got != tt.ok {
			t.Errorf("ValidName(%q) = %v, want %v", tt.name, got, tt.ok)
		}
	}
}

func TestValidExtensionID(t *testing.T) {
	tests := []struct {
		id string
		ok bool
	}{
		{"ljbpbjbogilfhbhbmmbpnncpndikkoic", true},
		{"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", true},
		{"pppppppppppppppppppppppppppppppp", true},
		{"qaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", false},
		{"Aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", false},
		{"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", false},
		{"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := ValidExtensionID(tt.id); got != tt.ok {
			t.Errorf("ValidExtensionID(%q) = %v, want %v", tt.id, got, tt.ok)
		}
	}
}

const gripID = "ljbpbjbogilfhbhbmmbpnncpndikkoic"

func TestParseOrigin(t *testing.T) {
	tests := []struct {
		arg  string
		want string
		ok   bool
	}{
		{"chrome-extension://" + gripID + "/", gripID, true},
		{"chrome-extension://" + gripID, gripID, true},
		{"chrome-extension://" + gripID + "//", "", false},
		{"chrome-extension://abc/", "", false},
		{"moz-extension://" + gripID + "/", "", false},
		{gripID, "", false},
		{"", "", false},
	}
	for _, tt := range tests {
		got, err := ParseOrigin(tt.arg)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("ParseOrigin(%q) = %q, %v; want %q, ok=%v", tt.arg, got, err, tt.want, tt.ok)
		}
		if err != nil && !errors.Is(err, ErrBadOrigin) {
			t.Errorf("ParseOrigin(%q) error %v is not ErrBadOrigin", tt.arg, err)
		}
	}
}

func TestAllowedOrigin(t *testing.T) {
	other := strings.Repeat("b", 32)
	origin := Origin(gripID)
	tests := []struct {
		name    string
		origin  string
		allowed []string
		want    error
	}{
		{"listed origin", origin, []string{Origin(other), origin}, nil},
		{"listed bare id", origin, []string{gripID}, nil},
		{"not listed", origin, []string{Origin(other)}, ErrOriginNotAllowed},
		{"empty list", origin, nil, ErrOriginNotAllowed},
		{"garbage origin", "https://example.com/", []string{origin}, ErrBadOrigin},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := AllowedOrigin(tt.origin, tt.allowed)
			if !errors.Is(err, tt.want) || (tt.want == nil) != (err == nil) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
			if err != nil && !strings.Contains(err.Error(), tt.origin) {
				t.Errorf("error %q does not name the origin %q", err, tt.origin)
			}
		})
	}
}

func TestNewHost(t *testing.T) {
	path := filepath.Join(t.TempDir(), "grip")
	h, err := NewHost(path, gripID)
	if err != nil {
		t.Fatal(err)
	}
	b, err := h.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if m["name"] != HostName || m["type"] != "stdio" || m["path"] != path {
		t.Errorf("manifest = %s", b)
	}
	origins, _ := m["allowed_origins"].([]any)
	if len(origins) != 1 || origins[0] != "chrome-extension://"+gripID+"/" {
		t.Errorf("allowed_origins = %v", m["allowed_origins"])
	}
	back, err := Parse(b)
	if err != nil || back.Path != path {
		t.Errorf("Parse = %+v, %v", back, err)
	}

	if _, err := NewHost("grip", gripID); !errors.Is(err, ErrRelativePath) {
		t.Errorf("relative path: err = %v, want ErrRelativePath", err)
	}
	if _, err := NewHost(path, "nope"); !errors.Is(err, ErrBadExtensionID) {
		t.Errorf("bad id: err = %v, want ErrBadExtensionID", err)
	}
	if _, err := NewHost(path); !errors.Is(err, ErrBadExtensionID) {
		t.Errorf("no id: err = %v, want ErrBadExtensionID", err)
	}
}

func ExampleNewHost() {
	h, _ := NewHost("/usr/local/bin/grip", "ljbpbjbogilfhbhbmmbpnncpndikkoic")
	b, _ := h.Marshal()
	fmt.Print(string(b))
	// Output:
	// {
	//   "name": "dev.grip.host",
	//   "description": "grip: lets an AI agent on this machine drive this browser (installed by `grip install`)",
	//   "path": "/usr/local/bin/grip",
	//   "type": "stdio",
	//   "allowed_origins": [
	//     "chrome-extension://ljbpbjbogilfhbhbmmbpnncpndikkoic/"
	//   ]
	// }
}
