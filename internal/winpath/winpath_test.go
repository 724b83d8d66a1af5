package winpath

import "testing"

func TestJoin(t *testing.T) {
	tests := []struct {
		elem []string
		want string
	}{
		{[]string{`C:\Users\u`, "AppData", "Local"}, `C:\Users\u\AppData\Local`},
		{[]string{`D:\Local\`, "grip"}, `D:\Local\grip`},
		{[]string{`C:\ProgramData`, `\grip\`, "x.json"}, `C:\ProgramData\grip\x.json`},
		{[]string{"Software", `Google\Chrome`, "NativeMessagingHosts"}, `Software\Google\Chrome\NativeMessagingHosts`},
		{[]string{"a/b", "", "c"}, `a\b\c`},
		{[]string{`\\server\share\`, "f"}, `\\server\share\f`},
	}
	for _, tt := range tests {
		if got := Join(tt.elem...); got != tt.want {
			t.Errorf("Join(%q) = %q, want %q", tt.elem, got, tt.want)
		}
	}
}
