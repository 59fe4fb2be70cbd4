import FerryCommandLine
import Ferry
import FerryMarkdown

// Ferry's command line with one more codec: everything `ferry` does, plus
// `--to markdown` and `.md` outputs.
FerryCLI.main(registry: CodecRegistry.standard.registering(MarkdownTableCodec()))
