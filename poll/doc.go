// Package poll is Notifio's watcher: scheduling, fetching, classifying, extracting
// and committing the results of each search, and publishing snapshots to observers.
// Its nouns (snapshots, states, inputs and results) are internal/model's, its
// words poll/words'.
package poll
