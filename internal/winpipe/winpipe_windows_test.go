//go:build windows

package winpipe

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"testing"
	"time"

	"github.com/grip-dev/grip/internal/wintest"
	"golang.org/x/sys/windows"
)

func testPipe(t *testing.T) string {
	return Name(wintest.TempDir(t), fmt.Sprintf("t%d", time.Now().UnixNano()))
}

// A round trip on a pipe Listen made: Dial checks the server, CheckClient
// the client, and bytes go both ways.
func TestPipeRoundTrip(t *testing.T) {
	path := testPipe(t)
	ln, err := Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	got := make(chan error, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			got <- err
			return
		}
		defer c.Close()
		if err := CheckClient(c); err != nil {
			got <- fmt.Errorf("CheckClient: %w", err)
			return
		}
		buf := make([]byte, 4)
		if _, err := io.ReadFull(c, buf); err != nil {
			got <- err
			return
		}
		_, err = c.Write(append(buf, '!'))
		got <- err
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := Dial(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Write([]byte("ping")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 5)
	if _, err := io.ReadFull(c, buf); err != nil {
		t.Fatal(err)
	}
	if string(buf) != "ping!" {
		t.Errorf("read %q", buf)
	}
	if err := <-got; err != nil {
		t.Fatal(err)
	}
}

// No second process (nor a second listener of ours) can create a pipe of
// the same name while the first lives: that is what stops a squatter who
// starts before the host, and a host that starts after a squatter.
func TestPipeFirstInstanceOnly(t *testing.T) {
	path := testPipe(t)
	if wintest.Wine() {
		t.Skip("Wine 8 ignores FILE_FLAG_FIRST_PIPE_INSTANCE: a second instance is created (checked on Windows only; the host's own listen dials first, see host's TestPipeSecondHostRefused)")
	}
	ln, err := Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Listen(path)
	if !errors.Is(err, ErrTaken) {
		t.Fatalf("second Listen: %v, want ErrTaken", err)
	}
	ln.Close()
	// Once the first is gone the name is free again.
	ln, err = Listen(path)
	if err != nil {
		t.Fatalf("Listen after Close: %v", err)
	}
	ln.Close()
}

// The pipe's security descriptor, read back from the kernel object: owned
// by us, a protected DACL with exactly our SID and SYSTEM.
func TestPipeSecurityDescriptor(t *testing.T) {
	path := testPipe(t)
	ln, err := Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		if c, err := ln.Accept(); err == nil {
			time.Sleep(time.Second)
			c.Close()
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := Dial(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	sd, err := windows.GetSecurityInfo(handle(c), windows.SE_KERNEL_OBJECT,
		windows.OWNER_SECURITY_INFORMATION|windows.DACL_SECURITY_INFORMATION)
	if err != nil {
		t.Fatalf("GetSecurityInfo: %v", err)
	}
	self, err := selfSID()
	if err != nil {
		t.Fatal(err)
	}
	owner, _, err := sd.Owner()
	if err != nil || !owner.Equals(self) {
		t.Errorf("owner = %v (%v), want %s", owner, err, self)
	}
	dacl, _, err := sd.DACL()
	if err != nil || dacl == nil {
		t.Fatalf("DACL: %v, %v", dacl, err)
	}
	system, err := windows.CreateWellKnownSid(windows.WinLocalSystemSid)
	if err != nil {
		t.Fatal(err)
	}
	var sids []*windows.SID
	for i := range uint32(dacl.AceCount) {
		var ace *windows.ACCESS_ALLOWED_ACE
		if err := windows.GetAce(dacl, i, &ace); err != nil {
			t.Fatal(err)
		}
		if ace.Header.AceType != windows.ACCESS_ALLOWED_ACE_TYPE {
			t.Errorf("ACE %d has type %d", i, ace.Header.AceType)
		}
		sids = append(sids, (*windows.SID)(unsafePointer(&ace.SidStart)))
	}
	if len(sids) != 2 || !sids[0].Equals(self) || !sids[1].Equals(system) {
		t.Errorf("DACL grants %v, want [%s %s] (%s)", sids, self, system, sd)
	}
}

// Another account's process is refused: SameUser's verdict on a SID that
// is not ours (SYSTEM's, the one other account the DACL lets open the
// pipe), and SameUser on a process that does not exist.
func TestSameUserRefusesOthers(t *testing.T) {
	self, err := selfSID()
	if err != nil {
		t.Fatal(err)
	}
	system, _ := windows.CreateWellKnownSid(windows.WinLocalSystemSid)
	if err := sameSID(self, system); !errors.Is(err, ErrNotOwner) {
		t.Errorf("sameSID(SYSTEM) = %v, want ErrNotOwner", err)
	}
	if err := sameSID(self, self); err != nil {
		t.Errorf("sameSID(self) = %v", err)
	}
	if err := SameUser(uint32(os.Getpid())); err != nil {
		t.Errorf("SameUser(own pid) = %v", err)
	}
	if err := SameUser(0x7ffffff0); !errors.Is(err, ErrNotOwner) {
		t.Errorf("SameUser(no such process) = %v, want ErrNotOwner", err)
	}
}

// The DACL is enforced when a client opens the pipe: a pipe only SYSTEM may
// open refuses this process (an account the DACL does not name) with
// ERROR_ACCESS_DENIED before any server code runs. Our own Listen's DACL
// names us, so this stands in for "another user opens our pipe", the one
// Wine can show: every Wine process runs as the same user.
func TestPipeDACLRefusesAnAccountNotNamed(t *testing.T) {
	path := testPipe(t)
	ln, err := listenSDDL(path, "D:P(A;;GA;;;SY)")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		if c, err := ln.Accept(); err == nil {
			c.Close()
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := Dial(ctx, path)
	if err == nil {
		c.Close()
		if wintest.Wine() {
			t.Skip("this Wine does not enforce a pipe's DACL")
		}
		t.Fatal("opened a pipe whose DACL names only SYSTEM")
	}
	if !errors.Is(err, windows.ERROR_ACCESS_DENIED) {
		t.Fatalf("Dial = %v, want ERROR_ACCESS_DENIED", err)
	}
}
