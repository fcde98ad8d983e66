@testable import Statechart
