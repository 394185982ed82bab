; Inno Setup 6 script: ClubDesk for Windows, per-user, no administrator rights needed.
; NOT BUILT OR TESTED on Windows yet: see installer/README.md for how to build it and what to check.
;
;   iscc /DAppVersion=0.1.0 installer\clubdesk.iss
;
; Input: the one-folder bundle made by PyInstaller from installer\clubdesk.spec (build\installer\dist\clubdesk).
; Output: build\installer\ClubDesk-<version>-setup.exe.
; The club's data (database, backups, logs) lives in %LOCALAPPDATA%\ClubDesk, outside the program folder, so the
; uninstaller never touches it; a portable ClubDesk-data folder beside the program (portable.txt) is kept too,
; since the uninstaller removes only the files it installed.

#ifndef AppVersion
  #define AppVersion "0.1.0"
#endif

[Setup]
AppId={{6F1C2B0E-5A3D-4C47-9E2B-C1D0B5E7A924}
AppName=ClubDesk
AppVersion={#AppVersion}
AppVerName=ClubDesk {#AppVersion}
AppPublisher=ClubDesk
DefaultDirName={autopf}\ClubDesk
DefaultGroupName=ClubDesk
DisableProgramGroupPage=yes
; per-user install: {autopf} is %LOCALAPPDATA%\Programs, shortcuts go to the user's Start menu and desktop
PrivilegesRequired=lowest
PrivilegesRequiredOverridesAllowed=dialog
OutputDir=..\build\installer
OutputBaseFilename=ClubDesk-{#AppVersion}-setup
Compression=lzma2/max
SolidCompression=yes
WizardStyle=modern
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
UninstallDisplayIcon={app}\clubdesk.exe
UninstallDisplayName=ClubDesk {#AppVersion}
ShowLanguageDialog=auto

[Languages]
Name: "english"; MessagesFile: "compiler:Default.isl"
Name: "spanish"; MessagesFile: "compiler:Languages\Spanish.isl"
Name: "turkish"; MessagesFile: "compiler:Languages\Turkish.isl"
; Indonesian is one of Inno Setup's user-contributed translations: put Indonesian.isl beside this file first
; (installer\README.md, step 4)
Name: "indonesian"; MessagesFile: "Indonesian.isl"

[CustomMessages]
english.OpenClubDesk=Open ClubDesk
spanish.OpenClubDesk=Abrir ClubDesk
turkish.OpenClubDesk=ClubDesk'i aç
indonesian.OpenClubDesk=Buka ClubDesk
english.DataKept=Your club's data in %LOCALAPPDATA%\ClubDesk is kept.
spanish.DataKept=Los datos de su club en %LOCALAPPDATA%\ClubDesk se conservan.
turkish.DataKept=Kulübünüzün %LOCALAPPDATA%\ClubDesk içindeki verileri korunur.
indonesian.DataKept=Data klub Anda di %LOCALAPPDATA%\ClubDesk tetap disimpan.

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"

[Files]
Source: "..\build\installer\dist\clubdesk\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[Icons]
Name: "{autoprograms}\ClubDesk"; Filename: "{app}\clubdesk.exe"; WorkingDir: "{app}"
Name: "{autodesktop}\ClubDesk"; Filename: "{app}\clubdesk.exe"; WorkingDir: "{app}"; Tasks: desktopicon

[Run]
Filename: "{app}\clubdesk.exe"; Description: "{cm:OpenClubDesk}"; Flags: nowait postinstall skipifsilent

[UninstallDelete]
; only what ClubDesk itself may leave in the program folder; never the data folders
Type: filesandordirs; Name: "{app}\_internal\__pycache__"

[Code]
procedure CurUninstallStepChanged(CurUninstallStep: TUninstallStep);
begin
  if (CurUninstallStep = usPostUninstall) and not UninstallSilent then
    MsgBox(ExpandConstant('{cm:DataKept}'), mbInformation, MB_OK);
end;
