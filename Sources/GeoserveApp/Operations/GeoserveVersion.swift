/// The release this binary is; `geoserve --version`, `/metrics`' build info and the logs name it.
package enum GeoserveVersion {
    package static let current = "0.9.0-dev"
}
