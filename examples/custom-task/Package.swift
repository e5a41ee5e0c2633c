// swift-tools-version:6.1
import PackageDescription

// SageResearch's migration guide's `MyCustomTask` (docs/custom-tasks.md), built against this
// repository's libraries. Only TaskModel and TaskNavigation are used, which depend on nothing
// else, so the example builds quickly even from an empty .build.
let package = Package(
    name: "CustomTask",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "MyCustomTask", targets: ["MyCustomTask"]),
    ],
    dependencies: [
        .package(name: "ActiveTask", path: "../.."),
    ],
    targets: [
        .target(
            name: "MyCustomTask",
            dependencies: [
                .product(name: "TaskModel", package: "ActiveTask"),
                .product(name: "TaskNavigation", package: "ActiveTask"),
            ]
        ),
        .testTarget(
            name: "MyCustomTaskTests",
            dependencies: [
                "MyCustomTask",
                .product(name: "TaskModel", package: "ActiveTask"),
                .product(name: "TaskNavigation", package: "ActiveTask"),
            ],
            resources: [.copy("Tasks")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
