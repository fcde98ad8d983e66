@_exported import Statechart
