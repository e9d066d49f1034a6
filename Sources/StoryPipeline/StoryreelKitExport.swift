// The pipeline writes and checks StoryreelKit's `Manifest`, and its JSON is the Kit's
// `JSONValue`: whoever imports the pipeline sees both.
@_exported import StoryreelKit
