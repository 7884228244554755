// Command tlogproof checks one C2SP tlog-proof (c2sp.org/tlog-proof) with Go's own
// golang.org/x/mod/sumdb/note and tlog, the Go checksum database's code, not this project's
// (issue 42, TP10): the checkpoint is opened with note.Open under the log's vkey only (never a
// key the proof carries), and tlog.CheckRecord checks the path from the card's record hash,
// SHA-256(0x00 || card sha256 bytes), to the checkpoint's root.
//
//	tlogproof <proof file> <log vkey> <card sha256 hex>
//
// Exit 0 and "ok: …" when it holds; 1 and the reason on stderr otherwise.
package main

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

func fail(f string, a ...interface{}) { fmt.Fprintf(os.Stderr, f+"\n", a...); os.Exit(1) }

func main() {
	raw, err := os.ReadFile(os.Args[1])
	if err != nil {
		fail("%v", err)
	}
	v, err := note.NewVerifier(os.Args[2])
	if err != nil {
		fail("vkey: %v", err)
	}
	card, err := hex.DecodeString(os.Args[3])
	if err != nil || len(card) != 32 {
		fail("card sha256")
	}
	blank := bytes.Index(raw, []byte("\n\n"))
	if blank < 0 {
		fail("no empty line before the checkpoint")
	}
	head := strings.Split(string(raw[:blank]), "\n")
	cp := raw[blank+2:]
	if len(head) > 1 && strings.HasPrefix(head[1], "extra ") {
		head = append(head[:1], head[2:]...) // the extra data is not authenticated: not used
	}
	if len(head) < 2 || head[0] != "c2sp.org/tlog-proof@v1" || !strings.HasPrefix(head[1], "index ") {
		fail("header")
	}
	index, err := strconv.ParseInt(strings.TrimPrefix(head[1], "index "), 10, 64)
	if err != nil {
		fail("index")
	}
	var proof tlog.RecordProof
	for _, l := range head[2:] {
		b, err := base64.StdEncoding.DecodeString(l)
		if err != nil || len(b) != 32 {
			fail("path line")
		}
		var h tlog.Hash
		copy(h[:], b)
		proof = append(proof, h)
	}
	n, err := note.Open(cp, note.VerifierList(v))
	if err != nil {
		fail("note.Open: %v", err)
	}
	lines := strings.Split(n.Text, "\n")
	if len(lines) < 4 || lines[0] != v.Name() {
		fail("the checkpoint's origin is not the vkey's name")
	}
	size, err := strconv.ParseInt(lines[1], 10, 64)
	if err != nil {
		fail("size")
	}
	rb, err := base64.StdEncoding.DecodeString(lines[2])
	if err != nil || len(rb) != 32 {
		fail("root")
	}
	var root tlog.Hash
	copy(root[:], rb)
	if err := tlog.CheckRecord(proof, size, root, index, tlog.RecordHash(card)); err != nil {
		fail("CheckRecord: %v", err)
	}
	fmt.Printf("ok: record %d of %s at size %d, %d signatures (%d unverified)\n", index, lines[0], size, len(n.Sigs), len(n.UnverifiedSigs))
}
