await CommandRunner.main(root: RootCommand.self)
