package words

import (
	"strings"
	"testing"
	"time"

	"notifio/internal/model"
)

// The sentences storage's recovery tests once read from Recovery.String.
func TestRecoveryWords(t *testing.T) {
	at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	damaged := &model.Recovery{Reason: "bad page", DamagedPath: "/d/x.damaged", BackupPath: "/d/b1", BackupTime: at, Rejected: []string{"/d/b0"}}
	if s := RecoveryWords(damaged); !strings.Contains(s, "1 newer backup(s) were damaged too") ||
		!strings.HasPrefix(s, "The database was damaged (bad page); it was moved to /d/x.damaged") {
		t.Fatalf("damaged: %s", s)
	}
	missing := &model.Recovery{BackupPath: "/d/b1", BackupTime: at}
	if s := RecoveryWords(missing); !strings.HasPrefix(s, "The database was missing") || strings.Contains(s, "newer backup") {
		t.Fatalf("missing: %s", s)
	}
	if RecoveryWords(nil) != "" {
		t.Fatal("nil recovery has words")
	}
}
