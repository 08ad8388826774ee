program oracle;
{$mode objfpc}{$H+}
uses SysUtils;
function FromHex(const s: string): string;
var i: Integer;
begin
  Result := '';
  i := 1;
  while i < Length(s) do begin
    Result := Result + Chr(StrToInt('$' + Copy(s, i, 2)));
    Inc(i, 2);
  end;
end;
function ToHex(const s: string): string;
var i: Integer;
begin
  Result := '';
  for i := 1 to Length(s) do Result := Result + IntToHex(Ord(s[i]), 2);
end;
var line, mode, arg: string; v: Longint;
begin
  while not EOF(Input) do begin
    ReadLn(line);
    mode := Copy(line, 1, 1);
    arg := FromHex(Copy(line, 3, MaxInt));
    if mode = 'E' then
      WriteLn(ToHex(ExpandFileName(arg)))
    else if mode = 'I' then begin
      if TryStrToInt(arg, v) then WriteLn('ok ', v) else WriteLn('fail');
    end
    else if mode = 'T' then
      WriteLn(ToHex(Trim(arg)))
    else if mode = 'D' then
      WriteLn(ToHex(ExtractFileDir(arg)))
    else if mode = 'P' then
      WriteLn(ToHex(ExtractFilePath(arg)));
  end;
end.
