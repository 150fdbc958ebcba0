import ArgumentParser
import GeoserveApp

@main
struct GeoserveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "geoserve",
        abstract: "Verified, privacy-safe area statistics from sensitive individual reports.",
        discussion: """
        Every option can also be set with a GEOSERVE_* environment variable (named under each \
        command's --help); a flag wins over the variable.
        """,
        version: GeoserveVersion.current,
        subcommands: [ServeCommand.self, ImportAreasCommand.self, ImportReportsCommand.self, LayersCommand.self, UserCommand.self, AuditCommand.self, AggregatesCommand.self,
                      ExportCommand.self, TilesCommand.self, AssignCommand.self, BenchCommand.self, MigrateCommand.self,
                      MigrateStoreCommand.self, PublishCommand.self, BackupCommand.self, RestoreCommand.self, ConfigCommand.self, DemoReportsCommand.self, WebhooksCommand.self, DrillCommand.self, TimeZoneCommand.self, CheckCommand.self]
    )
}
